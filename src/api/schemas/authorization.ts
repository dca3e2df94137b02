import { Type } from 'typebox'

/** Token request: form-encoded (or JSON). Checked by hand so each missing field gets its real code. */
export const TokenRequest = Type.Object({
  grant_type: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String())
})

export const TokenResponse = Type.Object({
  tokenType: Type.Literal('Bearer'),
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresIn: Type.String({ description: 'Seconds, as a string (as the real API sends it)' }),
  refreshTokenExpiresIn: Type.Optional(Type.String()),
  username: Type.String(),
  token_type: Type.Literal('Bearer'),
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.String()
})

/** `GET /authorization/me`: who the token belongs to and, per account, the group and what it allows. */
export const Me = Type.Object({
  username: Type.String(),
  accounts: Type.Array(Type.Object({
    accountName: Type.String(),
    group: Type.String({ description: 'Owner, Administrators, DNSAdministrators or ReadOnly' }),
    permissions: Type.Array(Type.String(), { description: 'What the group may do in the account: read, write, create, delete, export, unalias, update, suspend' })
  }))
})
