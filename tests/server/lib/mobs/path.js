// Path finding for mobs over the block grid: A* over the cells a mob can stand in, with the moves vanilla's
// WalkNodeEvaluator allows a land mob: walk to a neighbouring cell (diagonally only when both sides are open),
// jump up one block, drop down at most 3 (a mob's max fall distance) and, for mobs that float, swim.
'use strict'

const { SOLID, WATER, LAVA } = require('./grid')

const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]
const MAX_DROP = 3
const SWIM_COST = 2 // extra cost of a cell of water (vanilla's WATER path malus is 8 for land mobs; 2 keeps a
//                     chasing mob willing to cross a stream)

// Searches stay within 127 blocks across and 255 up or down of the start, so a cell relative to the start packs
// into a small integer (V8 keeps those unboxed, which makes the Maps below fast).
const SPAN = 127
function key (dx, dy, dz) { return ((dx + 128) * 256 + (dz + 128)) * 512 + (dy + 256) }

// What a cell is to the mob searching, worked out once per search (see kind()).
const PASS = 1 // its body fits there (feet and head room clear of solid blocks and lava)
const STAND = 2 // it can stand there (or float, with `swim`)
const WET = 4 // the feet are in water
const SOLIDCELL = 8 // the cell is a solid block

/** A binary min-heap of nodes ordered by `f`. */
class Heap {
  constructor () { this.items = [] }
  get size () { return this.items.length }
  push (n) {
    const a = this.items
    a.push(n)
    let i = a.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (a[parent].f <= n.f) break
      a[i] = a[parent]; i = parent
    }
    a[i] = n
  }

  pop () {
    const a = this.items
    const top = a[0]
    const last = a.pop()
    if (a.length) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1; const r = l + 1
        let m = i; let mf = last.f
        if (l < a.length && a[l].f < mf) { m = l; mf = a[l].f }
        if (r < a.length && a[r].f < mf) m = r
        if (m === i) break
        a[i] = a[m]; i = m
      }
      a[i] = last
    }
    return top
  }
}

/**
 * Finds a way for a mob from cell `from` to cell `goal` (both `{x, y, z}` of whole numbers: the cell the feet are
 * in). Options: `cells` (blocks of head room the mob needs), `swim` (water cells may be used), `maxNodes` (cells
 * expanded before giving up), `reach` (a cell within this distance of the goal will do).
 *
 * Returns `{ path, complete, expanded }`: `path` lists the cells to walk through after `from`; if the goal could
 * not be reached it leads to the cell that came closest (vanilla follows such partial paths too), and it is empty
 * when no cell is closer than `from`.
 */
function findPath (grid, from, goal, { cells = 2, swim = false, maxNodes = 1500, reach = 0 } = {}) {
  const ox = from.x; const oy = from.y; const oz = from.z
  const open = new Heap()
  const nodes = new Map()
  const kinds = new Map()
  const reach2 = reach * reach
  const h = (x, y, z) => {
    const dx = Math.abs(x - goal.x); const dz = Math.abs(z - goal.z)
    return Math.max(dx, dz) + 0.41421356 * Math.min(dx, dz) + Math.abs(y - goal.y)
  }
  const kind = (x, y, z) => {
    const k = key(x - ox, y - oy, z - oz)
    let v = kinds.get(k)
    if (v === undefined) {
      const c = grid.cls(x, y, z)
      v = c & SOLID ? SOLIDCELL : 0
      if (grid.bodyFits(x, y, z, cells)) {
        v |= PASS
        if (c & WATER) v |= WET
        if (grid.standable(x, y, z, cells, swim)) v |= STAND
      }
      kinds.set(k, v)
    }
    return v
  }
  const start = { x: ox, y: oy, z: oz, g: 0, f: h(ox, oy, oz), h: h(ox, oy, oz), parent: null, closed: false }
  nodes.set(key(0, 0, 0), start)
  open.push(start)
  let best = start
  let expanded = 0
  let done = null

  const add = (parent, x, y, z, cost) => {
    if (x - ox > SPAN || ox - x > SPAN || z - oz > SPAN || oz - z > SPAN || y - oy > 255 || oy - y > 255) return
    const k = key(x - ox, y - oy, z - oz)
    const g = parent.g + cost
    let n = nodes.get(k)
    if (n) {
      if (n.closed || g >= n.g) return
      n.g = g; n.f = g + n.h; n.parent = parent
      open.push(n) // the stale entry is skipped when popped (it is closed by then or has a higher f)
      return
    }
    const hn = h(x, y, z)
    n = { x, y, z, g, f: g + hn, h: hn, parent, closed: false }
    nodes.set(k, n)
    open.push(n)
  }

  while (open.size) {
    const n = open.pop()
    if (n.closed) continue
    n.closed = true
    if (n.h < best.h) best = n
    const gx = n.x - goal.x; const gy = n.y - goal.y; const gz = n.z - goal.z
    if (gx * gx + gy * gy + gz * gz <= reach2) { done = n; break }
    if (++expanded > maxNodes) break
    const { x, y, z } = n
    const here = kind(x, y, z)
    // Head room to jump: the cell above the head is open.
    const canJump = !(grid.cls(x, y + cells, z) & SOLID)
    for (const [dx, dz] of DIRS) {
      const nx = x + dx; const nz = z + dz
      const diagonal = dx !== 0 && dz !== 0
      if (diagonal && !((kind(nx, y, z) & STAND) && (kind(x, y, nz) & STAND))) continue
      const step = diagonal ? 1.41421356 : 1
      const there = kind(nx, y, nz)
      if (there & PASS) {
        if (there & STAND) { add(n, nx, y, nz, step + (there & WET ? SWIM_COST : 0)); continue }
        // Nothing to stand on: drop down to the first floor, at most MAX_DROP blocks (a cliff otherwise).
        for (let k = 1; k <= MAX_DROP; k++) {
          const c = grid.cls(nx, y - k, nz)
          if (c & (SOLID | LAVA)) break
          if (c & WATER) { if (swim) add(n, nx, y - k, nz, step + k * 0.2 + SWIM_COST); break }
          if (kind(nx, y - k, nz) & STAND) { add(n, nx, y - k, nz, step + k * 0.2); break }
        }
      } else if (!diagonal && canJump && (there & SOLIDCELL) && (kind(nx, y + 1, nz) & STAND)) {
        add(n, nx, y + 1, nz, step + 0.5) // jump up a one-block step
      }
    }
    // Swimming straight up out of deeper water.
    if (swim && (here & WET) && (kind(x, y + 1, z) & STAND)) add(n, x, y + 1, z, 1 + SWIM_COST)
  }

  const end = done ?? best
  const path = []
  for (let n = end; n && n !== start; n = n.parent) path.push({ x: n.x, y: n.y, z: n.z })
  path.reverse()
  return { path, complete: !!done, expanded }
}

module.exports = { findPath, MAX_DROP }
