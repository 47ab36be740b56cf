import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** `npm run service` as a child process: `node --import tsx demo/service/main.ts`, one process to signal. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Interface B's base URL, read from the start output. */
  url: string;
  output: string[];
  /** Resolves with the exit code (or signal). */
  exited: Promise<number | string>;
}

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Start the service's CLI and wait for `ready`. Not through npm: npm's own process would get
 * the signals and leave the service running.
 */
export async function startServiceProcess(args: string[], env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/service/main.ts', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const ready = new Promise<string>((resolve, reject) => {
    let url = '';
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const match = /^Interface B \(notifications\)\s+(\S+)\/v1$/.exec(line);
        if (match) url = match[1] as string;
        if (line === 'ready') resolve(url);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exited.then((code) => reject(new Error(`service exited (${code}) before ready: ${output.join('\n')}`)));
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    return { child, url: await ready, output, exited };
  } finally {
    clearTimeout(timeout);
  }
}
