import { createInterface } from 'node:readline'

/** Read a password from the terminal without echoing it. */
export async function promptHidden (question: string): Promise<string> {
  const input = process.stdin
  const output = process.stderr
  const rl = createInterface({ input, output, terminal: true })
  let muted = false
  const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput.bind(rl)
  ;(rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (!muted) write(s)
  }
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => {
        output.write('\n')
        resolve(answer)
      })
      muted = true
    })
  } finally {
    rl.close()
  }
}

/** Read all of standard input (for `--password-stdin`), without the final newline. */
export async function readStdin (): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '')
}
