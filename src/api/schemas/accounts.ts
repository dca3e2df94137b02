import { Type } from 'typebox'
import { ResultInfo } from './common.ts'

export const Account = Type.Object({
  accountName: Type.String(),
  accountHolderUserName: Type.Union([Type.String(), Type.Null()]),
  ownerUserName: Type.Union([Type.String(), Type.Null()]),
  numberOfUsers: Type.Integer(),
  numberOfGroups: Type.Integer(),
  accountType: Type.String(),
  features: Type.Array(Type.String())
})

export const AccountList = Type.Object({
  resultInfo: ResultInfo,
  accounts: Type.Array(Account)
})

export const AccountParams = Type.Object({ accountName: Type.String({ minLength: 1, maxLength: 255 }) })
