#!/usr/bin/env node
// Mineflayer's side of the block-search benchmark (tests/bench/find_block.rs runs it): joins the world on --port,
// waits for the chunks around spawn to arrive (--settle-ms), then times `bot.findBlocks({ matching, maxDistance: 64, count: 1 })` for each
// block in --blocks, --rounds times each. Prints one JSON line: { block: { times: [ms, …], distance }, … } (distance
// from the bot's feet to the block found, null when none).
'use strict'

const mineflayer = require('mineflayer')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const port = Number(arg('port'))
const blocks = arg('blocks', 'iron_ore').split(',')
const rounds = Number(arg('rounds', 50))
const settle = Number(arg('settle-ms', 4000))

const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: arg('name', 'Mineflayer'), version: '26.1', auth: 'offline' })
bot.once('error', (err) => { console.error(err); process.exit(1) })
bot.once('kicked', (why) => { console.error('kicked:', why); process.exit(1) })
bot.once('spawn', async () => {
  await new Promise((resolve) => setTimeout(resolve, settle))
  const times = {}
  for (const name of blocks) {
    const block = bot.registry.blocksByName[name]
    if (!block) { console.error(`no block called ${name}`); process.exit(1) }
    times[name] = { times: [], distance: null }
    for (let i = 0; i < rounds; i++) {
      const t = performance.now()
      const found = bot.findBlocks({ matching: block.id, maxDistance: 64, count: 1 })
      times[name].times.push(performance.now() - t)
      if (found.length > 0) times[name].distance = found[0].offset(0.5, 0.5, 0.5).distanceTo(bot.entity.position)
      // Let the client answer keep-alives between searches.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  console.log(JSON.stringify(times))
  bot.quit()
  setTimeout(() => process.exit(0), 200)
})
