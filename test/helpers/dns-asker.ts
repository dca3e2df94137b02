/**
 * A DNS client in a thread of its own (a worker), so that it keeps asking while the test's
 * main thread (which may host the service) is busy: one UDP question at a time to
 * 127.0.0.1:`port`, the next once the answer is in (or after 1 s without one). On any message
 * from the parent it stops and posts `{ answered: number[], lost: number }`, the wall-clock
 * times (ms since the epoch) of the answers.
 */
import { createSocket } from 'node:dgram'
import { parentPort, workerData } from 'node:worker_threads'
import { query } from './dns-clients.ts'

const { port, name, type } = workerData as { port: number, name: string, type: string }
const socket = createSocket('udp4')
await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))
const answered: number[] = []
let lost = 0
const state = { running: true }
let waiting: ((id: number) => void) | undefined
socket.on('message', (msg) => waiting?.(msg.readUInt16BE(0)))
parentPort!.once('message', () => { state.running = false })
for (let id = 1; state.running; id = (id % 0xfffe) + 1) {
  const got = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 1000)
    waiting = (replyId) => {
      if (replyId !== id) return
      clearTimeout(timer)
      resolve(true)
    }
  })
  socket.send(query(id, name, type), port, '127.0.0.1')
  if (await got) answered.push(Date.now())
  else lost++
}
socket.close()
parentPort!.postMessage({ answered, lost })
