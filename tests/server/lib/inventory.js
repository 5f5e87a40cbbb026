// Inventories and container windows, with the server-side rules of the 26.1 click protocol: left/right pickup,
// shift-click (quick move), number-key swap, double-click gather, and crafting results that consume ingredients.
// The server is authoritative: after every click it sends the window's whole contents back.
'use strict'

const mcData = require('minecraft-data')('26.1')

const MENU = { generic_9x3: 2, crafting: 12, furnace: 14 }

/** An item stack: `{ name, count }`; empty slots are `null`. */
function stack (name, count) {
  if (!mcData.itemsByName[name]) throw new Error(`unknown item ${JSON.stringify(name)}`)
  return { name, count }
}

function maxStack (name) { return mcData.itemsByName[name]?.stackSize ?? 64 }

/** A stack in the protocol's Slot shape. */
function toSlot (s) {
  if (!s || s.count <= 0) return { itemCount: 0 }
  return { itemCount: s.count, itemId: mcData.itemsByName[s.name].id, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] }
}

// ---- crafting ---------------------------------------------------------------------------------------------------

const COLORS = ['white', 'orange', 'magenta', 'light_blue', 'yellow', 'lime', 'pink', 'gray', 'light_gray', 'cyan',
  'purple', 'blue', 'brown', 'green', 'red', 'black']

/**
 * minecraft-data writes "a dye + any wool (carpet, bed…) of another colour" with one colour only (pink dye + black
 * wool); the game takes every other colour, so such a recipe is listed once for each.
 */
function redyes (result, items) {
  const color = COLORS.filter((c) => result.startsWith(`${c}_`)).sort((a, b) => b.length - a.length)[0]
  if (!color || items.length !== 2 || items[0] !== `${color}_dye`) return [items]
  const base = result.slice(color.length + 1)
  if (!COLORS.some((c) => c !== color && items[1] === `${c}_${base}`)) return [items]
  return COLORS.filter((c) => c !== color && mcData.itemsByName[`${c}_${base}`]).map((c) => [`${color}_dye`, `${c}_${base}`])
}

/** Recipes by shape, built once from minecraft-data. */
const recipes = (() => {
  const shaped = []
  const shapeless = []
  for (const [resultId, variants] of Object.entries(mcData.recipes)) {
    const result = mcData.items[resultId]?.name
    if (!result) continue
    for (const v of variants) {
      const count = v.result.count
      if (v.inShape) {
        const rows = v.inShape.map((row) => row.map((id) => (id === null ? null : mcData.items[id]?.name ?? '?')))
        shaped.push({ rows, result, count })
      } else if (v.ingredients) {
        const items = v.ingredients.map((id) => mcData.items[id]?.name ?? '?')
        for (const each of redyes(result, items)) shapeless.push({ items: each.sort(), result, count })
      }
    }
  }
  return { shaped, shapeless }
})()

/** The crafting result for a square grid of stacks (`size`×`size`, row-major), or null. */
function craftResult (grid, size) {
  const names = grid.map((s) => (s ? s.name : null))
  let top = size; let bottom = -1; let left = size; let right = -1
  names.forEach((n, i) => {
    if (!n) return
    const r = Math.floor(i / size); const c = i % size
    top = Math.min(top, r); bottom = Math.max(bottom, r); left = Math.min(left, c); right = Math.max(right, c)
  })
  if (bottom < 0) return null
  const rows = []
  for (let r = top; r <= bottom; r++) rows.push(names.slice(r * size + left, r * size + right + 1))
  const same = (a, b) => a.length === b.length && a.every((row, i) => row.length === b[i].length && row.every((n, j) => n === b[i][j]))
  for (const recipe of recipes.shaped) {
    const padded = recipe.rows.map((row) => row.concat(Array(Math.max(0, rows[0].length - row.length)).fill(null)))
    if (same(padded, rows) || same(padded.map((row) => [...row].reverse()), rows)) return { name: recipe.result, count: recipe.count }
  }
  const present = names.filter(Boolean).sort()
  for (const recipe of recipes.shapeless) {
    if (recipe.items.length === present.length && recipe.items.every((n, i) => n === present[i])) return { name: recipe.result, count: recipe.count }
  }
  return null
}

// ---- windows ----------------------------------------------------------------------------------------------------

/**
 * A window is a list of slot references into storages (the player's 46-slot inventory, a chest's 27 slots, a
 * crafting grid…). `sections` say where shift-click moves things.
 */
class Window {
  constructor ({ id, type, title, refs, sections, craft = null, player }) {
    Object.assign(this, { id, type, title, refs, sections, craft, player, stateId: 1 })
  }

  get (i) { const [store, k] = this.refs[i]; return store[k] }
  set (i, s) { const [store, k] = this.refs[i]; store[k] = s && s.count > 0 ? s : null }

  /** Recomputes the crafting result slot from the grid. */
  updateCraft () {
    if (!this.craft) return
    const grid = this.craft.grid.map((i) => this.get(i))
    this.set(this.craft.result, craftResult(grid, this.craft.size))
  }

  contents () { return this.refs.map((_, i) => toSlot(this.get(i))) }

  /** Sends the whole window and the cursor (on opening, or to answer a click made on a stale state). */
  sync (client) {
    this.stateId++
    client.write('window_items', { windowId: this.id, stateId: this.stateId, items: this.contents(), carriedItem: toSlot(this.player.cursor) })
    this.remember()
  }

  /**
   * Sends only the slots that changed since the client last heard of them, one set_slot each, and not the cursor:
   * what vanilla's broadcastChanges does after a pickup, a placement or a furnace tick. (Sending the whole window
   * with the cursor instead can land in the middle of the client's clicks and overwrite the cursor it predicted.)
   */
  syncChanges (client) {
    if (!this.remote) { this.sync(client); return }
    this.refs.forEach((_, i) => {
      const now = this.get(i)
      if (sameStack(now, this.remote[i])) return
      this.stateId++
      client.write('set_slot', { windowId: this.id, stateId: this.stateId, slot: i, item: toSlot(now) })
    })
    this.remember()
  }

  /** Notes what the client now believes each slot holds. */
  remember () {
    this.remote = this.refs.map((_, i) => { const s = this.get(i); return s && { ...s } })
  }

  /**
   * Handles one window_click packet as vanilla does: apply the click, then correct only what the client predicted
   * wrongly (its `changedSlots` and `cursorItem`), and always send the crafting result, which clients do not predict.
   * A stale stateId gets the whole window back.
   */
  handleClick (client, packet) {
    const before = this.refs.map((_, i) => this.get(i))
    const cursorBefore = this.player.cursor
    this.click(packet.slot, packet.mouseButton, packet.mode)
    if (packet.stateId !== this.stateId) { this.sync(client); return }
    const predicted = new Map((packet.changedSlots ?? []).map((c) => [c.location, c.item ?? null]))
    const fix = new Set()
    this.refs.forEach((_, i) => {
      const now = this.get(i)
      const clientView = predicted.has(i) ? fromHashed(predicted.get(i)) : before[i]
      if (!sameStack(now, clientView) || (this.craft && i === this.craft.result && !sameStack(now, before[i]))) fix.add(i)
    })
    // Vanilla sends the result slot whenever the grid changes, even when the result stays empty; Mineflayer waits
    // for it after every click in the grid.
    if (this.craft && this.craft.grid.some((g) => !sameStack(this.get(g), before[g]))) fix.add(this.craft.result)
    if (fix.size) this.stateId++
    for (const i of fix) client.write('set_slot', { windowId: this.id, stateId: this.stateId, slot: i, item: toSlot(this.get(i)) })
    const cursorView = packet.cursorItem === undefined ? cursorBefore : fromHashed(packet.cursorItem)
    if (!sameStack(this.player.cursor, cursorView)) client.write('set_cursor_item', { contents: toSlot(this.player.cursor) })
    this.remember()
  }

  /** Removes one craft's ingredients from the grid. */
  consumeGrid () {
    for (const i of this.craft.grid) {
      const s = this.get(i)
      if (s) this.set(i, { ...s, count: s.count - 1 })
    }
  }

  /** Adds `s` to the slots in `range` (stacking first, then empty slots); returns what did not fit. */
  insert (s, range) {
    let left = s.count
    for (const pass of ['stack', 'empty']) {
      for (const i of range) {
        if (left === 0) return null
        const here = this.get(i)
        if (pass === 'stack' && here && here.name === s.name) {
          const room = maxStack(s.name) - here.count
          const moved = Math.min(room, left)
          if (moved > 0) { this.set(i, { ...here, count: here.count + moved }); left -= moved }
        } else if (pass === 'empty' && !here) {
          const moved = Math.min(maxStack(s.name), left)
          this.set(i, { name: s.name, count: moved }); left -= moved
        }
      }
    }
    return left > 0 ? { name: s.name, count: left } : null
  }

  /** Where shift-clicking slot `i` sends its stack. */
  targetsFor (i) {
    const from = this.sections.find((sec) => sec.slots.includes(i))
    return from ? from.to : []
  }

  /** Applies one click (the packet's slot, mouseButton, mode). */
  click (slot, button, mode) {
    const p = this.player
    const isResult = this.craft && slot === this.craft.result
    // Clicked outside the window: the cursor's stack (left) or one of it (right) is thrown, as vanilla does.
    if (slot === -999) {
      if (mode === 0 && p.cursor) {
        const count = button === 1 ? 1 : p.cursor.count
        p.throwStack?.({ name: p.cursor.name, count })
        p.cursor = p.cursor.count > count ? { ...p.cursor, count: p.cursor.count - count } : null
      }
      return
    }
    if (slot < 0 || slot >= this.refs.length) return
    if (mode === 0) {
      const here = this.get(slot)
      if (isResult) {
        if (!here) return
        if (p.cursor && (p.cursor.name !== here.name || p.cursor.count + here.count > maxStack(here.name))) return
        p.cursor = { name: here.name, count: (p.cursor?.count ?? 0) + here.count }
        this.consumeGrid()
      } else if (button === 0) {
        if (!p.cursor) { p.cursor = here; this.set(slot, null) } else if (!here) { this.set(slot, p.cursor); p.cursor = null } else if (here.name === p.cursor.name) {
          const moved = Math.min(maxStack(here.name) - here.count, p.cursor.count)
          this.set(slot, { ...here, count: here.count + moved })
          p.cursor = p.cursor.count - moved > 0 ? { ...p.cursor, count: p.cursor.count - moved } : null
        } else { this.set(slot, p.cursor); p.cursor = here }
      } else if (button === 1) {
        if (!p.cursor) {
          if (!here) return
          const taken = Math.ceil(here.count / 2)
          p.cursor = { name: here.name, count: taken }
          this.set(slot, { ...here, count: here.count - taken })
        } else if (!here || (here.name === p.cursor.name && here.count < maxStack(here.name))) {
          this.set(slot, { name: p.cursor.name, count: (here?.count ?? 0) + 1 })
          p.cursor = p.cursor.count > 1 ? { ...p.cursor, count: p.cursor.count - 1 } : null
        } else { this.set(slot, p.cursor); p.cursor = here }
      }
    } else if (mode === 1) {
      if (isResult) {
        // Craft as many as the grid and the inventory allow.
        for (let n = 0; n < 64; n++) {
          const result = this.get(slot)
          if (!result) break
          const rest = this.insert(result, this.targetsFor(slot))
          if (rest) { // did not fit: undo the partial insert by taking back what went in
            this.remove(result.name, result.count - rest.count, this.targetsFor(slot))
            break
          }
          this.consumeGrid()
          this.updateCraft()
        }
      } else {
        const here = this.get(slot)
        if (!here) return
        this.set(slot, this.insert(here, this.targetsFor(slot)))
      }
    } else if (mode === 2) {
      const hotbarSlot = button === 40 ? this.offhand : this.hotbar?.[button]
      if (hotbarSlot === undefined || hotbarSlot === slot || isResult) return
      const a = this.get(slot)
      this.set(slot, this.get(hotbarSlot))
      this.set(hotbarSlot, a)
    } else if (mode === 4) {
      // Drop key: one item (button 0) or the whole stack (button 1, with ctrl) is thrown.
      const here = this.get(slot)
      if (!here || isResult) return
      const count = button === 1 ? here.count : 1
      this.set(slot, here.count > count ? { ...here, count: here.count - count } : null)
      p.throwStack?.({ name: here.name, count })
    } else if (mode === 6 && p.cursor) {
      for (const i of this.refs.keys()) {
        if (i === this.craft?.result) continue
        const here = this.get(i)
        if (!here || here.name !== p.cursor.name) continue
        const moved = Math.min(maxStack(here.name) - p.cursor.count, here.count)
        p.cursor = { ...p.cursor, count: p.cursor.count + moved }
        this.set(i, { ...here, count: here.count - moved })
      }
    }
    this.updateCraft()
  }

  remove (name, count, range) {
    for (const i of range) {
      const here = this.get(i)
      if (!here || here.name !== name || count === 0) continue
      const taken = Math.min(here.count, count)
      this.set(i, { ...here, count: here.count - taken }); count -= taken
    }
  }
}

/** A client's hashed stack (item id and count; our items carry no components) as `{ name, count }` or null. */
function fromHashed (h) {
  if (!h || !h.itemCount) return null
  return { name: mcData.items[h.itemId]?.name ?? `#${h.itemId}`, count: h.itemCount }
}

function sameStack (a, b) {
  if (!a || !b) return !a && !b
  return a.name === b.name && a.count === b.count
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i)

/** The player's own inventory window (id 0): 0 result, 1-4 grid, 5-8 armour, 9-35 main, 36-44 hotbar, 45 off-hand. */
function playerWindow (player) {
  const refs = range(0, 45).map((i) => [player.inv, i])
  const main = range(9, 35); const hotbar = range(36, 44)
  const w = new Window({
    id: 0, type: 'inventory', player, refs,
    sections: [
      { slots: [0], to: [...hotbar.slice().reverse(), ...main.slice().reverse()] },
      { slots: range(1, 8), to: [...main, ...hotbar] },
      { slots: main, to: hotbar },
      { slots: hotbar, to: main },
      { slots: [45], to: [...main, ...hotbar] }
    ],
    craft: { result: 0, grid: [1, 2, 3, 4], size: 2 }
  })
  w.hotbar = hotbar; w.offhand = 45
  return w
}

/** A container window: its own slots first, then the player's main inventory and hotbar. */
function containerWindow ({ id, kind, title, store, player, craft = null, sections = null }) {
  const own = store.length
  const refs = [...store.map((_, i) => [store, i]), ...range(9, 35).map((i) => [player.inv, i]), ...range(36, 44).map((i) => [player.inv, i])]
  const ownSlots = range(0, own - 1)
  const mainSlots = range(own, own + 26); const hotbarSlots = range(own + 27, own + 35)
  const w = new Window({
    id, type: kind, title, player, refs, craft,
    sections: sections ?? [
      { slots: ownSlots, to: [...hotbarSlots.slice().reverse(), ...mainSlots.slice().reverse()] },
      { slots: [...mainSlots, ...hotbarSlots], to: ownSlots.filter((i) => !craft || i !== craft.result) }
    ]
  })
  w.hotbar = hotbarSlots
  return w
}

module.exports = { MENU, stack, maxStack, toSlot, craftResult, playerWindow, containerWindow, range }
