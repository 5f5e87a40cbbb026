// Chat in the test world, sent the way a vanilla 26.1 server without secure chat sends it: a player's line goes to
// everyone as an unsigned `player_chat` of chat type `minecraft:chat` (rendered "<Name> text"); `/msg` goes to the
// target as `msg_command_incoming` ("Name whispers to you: text") and back to the sender as `msg_command_outgoing`
// ("You whisper to Target: text"). Server messages (errors, notices) are `system_chat`. Every line is also an event
// on the control channel.
'use strict'

const nbt = require('prismarine-nbt')
const mcData = require('minecraft-data')('26.1')

/** Chat type ids: positions in the `minecraft:chat_type` registry the world sends while configuring. */
const CHAT_TYPES = Object.fromEntries(
  mcData.loginPacket.dimensionCodec['minecraft:chat_type'].entries.map((e, i) => [e.key.replace('minecraft:', ''), i])
)

/** A plain text component (NBT), optionally coloured. */
function text (s, color) {
  return nbt.comp({ text: nbt.string(s), ...(color ? { color: nbt.string(color) } : {}) })
}

/** How a player's name appears in chat: their name, which inserts itself on shift-click, as vanilla's does. */
function nameComponent (p) {
  return nbt.comp({ text: nbt.string(p.name), insertion: nbt.string(p.name) })
}

class Chat {
  /** `world` gives: players() (iterable of Player), find(name) -> Player|undefined, emit(event). */
  constructor (world) {
    this.world = world
  }

  /** Sends `content` (a component) to one player as a system message. */
  system (p, content) {
    p.send('system_chat', { content, isActionBar: false })
  }

  /** One unsigned player_chat from `sender` to `p`. `p.chatIndex` counts the messages that client has had. */
  playerChat (p, sender, message, type, target = null) {
    if (!p.client) return
    p.send('player_chat', {
      globalIndex: p.chatIndex++,
      senderUuid: sender.uuid,
      index: 0, // unsigned messages carry no chain position
      signature: undefined,
      plainMessage: message,
      timestamp: BigInt(Date.now()),
      salt: 0n,
      previousMessages: [],
      unsignedChatContent: undefined,
      filterType: 0,
      type: { chatType: CHAT_TYPES[type] },
      networkName: nameComponent(sender),
      networkTargetName: target ? nameComponent(target) : undefined
    })
  }

  /** `sender` says `message` in public chat: everyone, the sender included, gets it. */
  say (sender, message) {
    for (const p of this.world.players()) this.playerChat(p, sender, message, 'chat')
    this.world.emit({ event: 'chat', from: sender.name, text: message })
  }

  /** `/msg`: only the target hears it (the sender sees their own line); false if there is no such player. */
  whisper (sender, targetName, message) {
    const target = this.world.find(targetName)
    if (!target) return false
    this.playerChat(target, sender, message, 'msg_command_incoming', target)
    this.playerChat(sender, sender, message, 'msg_command_outgoing', target)
    this.world.emit({ event: 'whisper', from: sender.name, to: target.name, text: message })
    return true
  }

  /** A command `p` typed (without the slash). The world knows /msg, /tell and /w; anything else is unknown. */
  command (p, line) {
    const [name, target, ...words] = line.trim().split(/\s+/)
    this.world.emit({ event: 'command', from: p.name, command: line })
    if (['msg', 'tell', 'w'].includes(name) && target && words.length) {
      if (!this.whisper(p, target, words.join(' '))) this.system(p, text(mcData.language['argument.entity.notfound.player'], 'red'))
      return
    }
    // Vanilla's answer to a command it cannot parse: a red line, then the command with a marker where parsing failed.
    this.system(p, text(mcData.language['command.unknown.command'], 'red'))
    this.system(p, nbt.comp({
      text: nbt.string(''),
      extra: nbt.list(nbt.comp([
        { text: nbt.string(line), color: nbt.string('gray') },
        { text: nbt.string(mcData.language['command.context.here']), color: nbt.string('red'), italic: nbt.byte(1) }
      ]))
    }))
  }
}

module.exports = { Chat, text }
