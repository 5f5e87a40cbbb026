#!/usr/bin/env node
// `make demo`: starts the local test world, joins it with a Wayfarer bot, and has a scripted owner ("Guide") show
// the chat commands while the chat scrolls by. Afterwards the world stays up: join it with a Minecraft 26.1 client
// (offline mode, as the --owner name) to command the bot yourself. Ctrl-C stops everything.
// Usage: node demo.js --bot PATH/TO/wayfarer [--port 25565] [--owner Steve] [--world flat|natural] [--seed N]
//                    [--dashboard 127.0.0.1:8080|off]
// The dashboard (a web page showing the bot live, with a command box acting as the owner) is on unless `off`.
// In a natural world the tour walks the ground around the seed's spawn and fells the trees that grow there.
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const readline = require('node:readline')

const opts = { port: '25565', owner: 'Steve', world: 'flat', seed: '1', dashboard: '127.0.0.1:8080' }
for (let i = 2; i < process.argv.length; i += 2) opts[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
if (!opts.bot || !fs.existsSync(opts.bot)) {
  console.error(`demo: no wayfarer binary at ${opts.bot}; run \`make demo\` (it builds the bot first)`)
  process.exit(2)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const children = []
let nextId = 1
let stopping = false

function shutdown (code) {
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 300)
}
process.on('SIGINT', () => { console.log('\nstopping the demo'); shutdown(0) })
process.on('SIGTERM', () => shutdown(0))

async function main () {
  const worldArgs = ['--port', opts.port, '--world', opts.world, ...(opts.world === 'natural' ? ['--seed', opts.seed] : [])]
  const world = spawn('node', [path.join(__dirname, 'server.js'), ...worldArgs], { stdio: ['pipe', 'pipe', 'inherit'] })
  children.push(world)
  world.on('exit', (code) => { if (!stopping) { console.error(`demo: the test world exited (${code}); is port ${opts.port} free?`); shutdown(1) } })
  let ready = false
  const replies = new Map()
  readline.createInterface({ input: world.stdout }).on('line', (line) => {
    if (line.startsWith('READY ')) { ready = true; return }
    let msg
    try { msg = JSON.parse(line) } catch { return }
    if (msg.id != null && replies.has(msg.id)) { replies.get(msg.id)(msg); replies.delete(msg.id); return }
    if (msg.event === 'death') console.log(`  * ${msg.message}`)
    else if (msg.event === 'chat') console.log(`  <${msg.from}> ${msg.text}`)
    else if (msg.event === 'join') console.log(`  * ${msg.name} joined`)
    else if (msg.event === 'leave') console.log(`  * ${msg.name} left`)
  })
  const control = (cmd) => world.stdin.write(JSON.stringify({ id: nextId++, ...cmd }) + '\n')
  const ask = (cmd) => new Promise((resolve, reject) => {
    const id = nextId++
    replies.set(id, (msg) => (msg.ok ? resolve(msg.result) : reject(new Error(msg.error))))
    world.stdin.write(JSON.stringify({ id, ...cmd }) + '\n')
  })
  while (!ready) await sleep(50)
  const { spawn: home, seed } = await ask({ cmd: 'world' })
  console.log(`Test world (${opts.world}${seed ? `, seed ${seed}` : ''}) listening on 127.0.0.1:${opts.port}`)
  // Where someone stands dx, dz blocks from spawn: on top of the ground there.
  const at = async (dx, dz) => {
    const x = Math.floor(home.x) + dx; const z = Math.floor(home.z) + dz
    return { x, y: (await ask({ cmd: 'surface', x, z })).y + 1, z }
  }

  // The owner comes first: the dashboard's commands count as the first owner's.
  const dashboard = opts.dashboard === 'off' ? [] : ['--dashboard', opts.dashboard]
  const bot = spawn(opts.bot, ['run', '--server', `127.0.0.1:${opts.port}`, '--owner', opts.owner, '--owner', 'Guide', ...dashboard],
    { stdio: ['ignore', 'inherit', 'inherit'] })
  if (dashboard.length) console.log(`Dashboard: open http://${opts.dashboard}/ in a browser to watch the bot and command it as ${opts.owner}`)
  children.push(bot)
  bot.on('exit', (code) => { if (!stopping) { console.error(`demo: the bot exited (${code})`); shutdown(code || 1) } })

  await sleep(3000)
  const guide = await at(4, 4)
  control({ cmd: 'addPlayer', name: 'Guide', x: guide.x + 0.5, y: guide.y, z: guide.z + 0.5 })
  const goal = await at(8, -6)
  const away = await at(-6, 9)
  // On the superflat three logs stand in for trees; a natural world has its own.
  const trees = opts.world === 'flat' ? [[-3, 12], [-5, 12], [-4, 14]].map(([x, z]) => [{ cmd: 'setBlock', x, y: 64, z, block: 'oak_log' }, 100]) : []
  const tour = [
    ['!help'], ['!status'], [`!goto ${goal.x} ${goal.y} ${goal.z}`, 6000], ['!come', 6000], ['!follow Guide', 1500],
    [{ cmd: 'movePlayer', name: 'Guide', x: away.x + 0.5, y: away.y, z: away.z + 0.5 }, 5000], ['!status'], ['!stop'], ['!dance'],
    ...trees,
    ['!skills'], ['!skills make a wooden pick', 3000], ['!run craftWoodenPickaxe', 30000], ['!inventory'],
    ['!remember our base is by the spawn'], ['!recall where is the crafting table', 3000], ['!recall what did Guide ask', 3000]
  ]
  for (const [step, wait = 2000] of tour) {
    await sleep(1000)
    if (typeof step === 'string') control({ cmd: 'say', as: 'Guide', text: step })
    else if (step.cmd === 'movePlayer') { console.log('  (Guide walks away)'); control(step) } else control(step)
    await sleep(wait)
  }
  console.log(`\nThe tour is over; the world and the bot keep running. Join 127.0.0.1:${opts.port} with a Minecraft 26.1`)
  console.log(`client in offline mode as "${opts.owner}" and type !help in chat${dashboard.length ? `, or use the dashboard at http://${opts.dashboard}/` : ''}.`)
  console.log('Ctrl-C stops the demo.')
}

main().catch((err) => { console.error(`demo failed: ${err.message}`); shutdown(1) })
