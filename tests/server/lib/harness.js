// Test harness for the referee suite: starts the world on a free port, sends control commands, waits for events,
// and connects Mineflayer bots. Everything it starts is stopped by `close()`.
'use strict'

const { spawn } = require('node:child_process')
const path = require('node:path')
const readline = require('node:readline')
const { once } = require('node:events')
const mineflayer = require('mineflayer')

/** Starts the test world; `args` are more command-line options, e.g. `['--world', 'natural', '--seed', '7']`. */
async function startWorld (args = []) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'server.js'), '--port', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  const world = { child, events: [], pending: new Map(), nextId: 1, bots: [], waiters: [], log: [] }
  readline.createInterface({ input: child.stderr }).on('line', (line) => world.log.push(line))
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the world exited (${code}):\n${world.log.join('\n')}`)))
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('READY ')) { resolve(JSON.parse(line.slice(6)).port); return }
      const msg = JSON.parse(line)
      if (msg.id != null && world.pending.has(msg.id)) {
        const { resolve: ok, reject: fail } = world.pending.get(msg.id)
        world.pending.delete(msg.id)
        if (msg.ok) ok(msg.result); else fail(new Error(msg.error))
      } else if (msg.event) {
        world.events.push(msg)
        world.waiters = world.waiters.filter((w) => !(w.pred(msg) && (w.resolve(msg), true)))
      }
    })
  })
  world.port = await ready

  /** Sends a control command; resolves with its result. */
  world.cmd = (request) => new Promise((resolve, reject) => {
    const id = world.nextId++
    world.pending.set(id, { resolve, reject })
    child.stdin.write(JSON.stringify({ ...request, id }) + '\n')
  })

  /** Resolves with the first event (already seen or coming) that satisfies `pred`. */
  world.waitEvent = (pred, timeoutMs = 10000) => {
    const seen = world.events.find(pred)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching event within ${timeoutMs} ms`)), timeoutMs)
      world.waiters.push({ pred, resolve: (e) => { clearTimeout(timer); resolve(e) } })
    })
  }

  /** Connects a Mineflayer bot and waits for it to spawn. */
  world.bot = async (username, options = {}) => {
    const bot = mineflayer.createBot({ host: '127.0.0.1', port: world.port, username, version: '26.1', auth: 'offline', ...options })
    world.bots.push(bot)
    await once(bot, 'spawn')
    return bot
  }

  world.close = async () => {
    for (const bot of world.bots) bot.end()
    child.kill('SIGTERM')
    if (child.exitCode === null) await once(child, 'exit')
  }
  return world
}

/** Resolves when `check()` is true, polling every 50 ms; rejects after `timeoutMs`. */
async function until (check, timeoutMs = 10000, what = 'condition') {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

module.exports = { startWorld, until }
