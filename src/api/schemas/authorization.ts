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
