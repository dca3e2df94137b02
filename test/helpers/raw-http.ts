/** Raw HTTP/1.1 exchanges on a loopback socket, for what `app.inject` cannot send (broken requests, oversized heads). */
import { connect } from 'node:net'

/** Send `request` as raw bytes on a loopback connection; resolves to all the server answers until it closes (or the answer is complete). */
export async function rawExchange (port: number, request: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    let answer = ''
    const done = (): void => {
      socket.destroy()
      resolve(answer)
    }
    socket.setEncoding('latin1')
    // A server that neither answers nor closes fails the case (as "no HTTP answer") instead of hanging the suite.
    socket.setTimeout(10_000, done)
    socket.on('data', (chunk: string) => {
      answer += chunk
      if (complete(answer)) done()
    })
    socket.on('end', done)
    socket.on('close', done)
    socket.on('error', (err: NodeJS.ErrnoException) => err.code === 'ECONNRESET' || err.code === 'EPIPE' ? done() : reject(err))
    socket.write(request, 'latin1')
  })
}

/** True when `answer` holds a whole response (its headers and the Content-Length they announce). */
function complete (answer: string): boolean {
  const end = answer.indexOf('\r\n\r\n')
  if (end < 0) return false
  const length = /\r\ncontent-length: *(\d+)/i.exec(answer.slice(0, end))
  if (/\r\ntransfer-encoding: *chunked/i.test(answer.slice(0, end))) return answer.endsWith('0\r\n\r\n')
  return length !== null && Buffer.byteLength(answer.slice(end + 4), 'latin1') >= Number(length[1])
}

/** The body of a raw HTTP/1.1 answer (chunks joined), as UTF-8. */
export function bodyOf (answer: string): string {
  const end = answer.indexOf('\r\n\r\n')
  if (end < 0) return ''
  let rest = answer.slice(end + 4)
  if (/\r\ntransfer-encoding: *chunked/i.test(answer.slice(0, end))) {
    let out = ''
    for (let size = 0; (size = parseInt(rest, 16)) > 0;) {
      const start = rest.indexOf('\r\n') + 2
      out += rest.slice(start, start + size)
      rest = rest.slice(start + size + 2)
    }
    rest = out
  }
  return Buffer.from(rest, 'latin1').toString('utf8')
}
