// A headless Chromium driven over stdin/stdout, for tests written in another language (Wayfarer's dashboard tests).
//
//   node tests/server/tools/browser.js
//
// Reads one JSON request a line and answers each with one JSON line: {"ok": RESULT} or {"error": MESSAGE}.
//   {"op": "open", "url": URL}                    launch the browser (once) and load URL
//   {"op": "text", "selector": CSS}              the element's textContent (null when there is none)
//   {"op": "eval", "js": EXPRESSION}             the expression's value in the page (JSON-serialisable)
//   {"op": "fill", "selector": CSS, "text": T}   type into an input
//   {"op": "click", "selector": CSS}
//   {"op": "press", "selector": CSS, "key": K}   e.g. "Enter"
//   {"op": "screenshot", "path": FILE}           the whole page, as PNG
//   {"op": "errors"}                             the page's uncaught errors and console errors so far
//   {"op": "close"}
//
// The browser is the system's Chromium (Debian's `chromium` package; WAYFARER_CHROMIUM names another), driven by
// playwright-core, which downloads nothing.
'use strict'

const fs = require('fs')
const path = require('path')
const readline = require('readline')
const { chromium } = require('playwright-core')

const CANDIDATES = [process.env.WAYFARER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

function findChromium () {
  const found = CANDIDATES.find((candidate) => candidate && fs.existsSync(candidate))
  if (!found) {
    throw new Error('no Chromium found: install the Debian package (apt-get install chromium) or set WAYFARER_CHROMIUM')
  }
  return found
}

let browser = null
let page = null
const errors = []

async function handle (request) {
  switch (request.op) {
    case 'open': {
      if (!browser) {
        browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: ['--no-sandbox'] })
        page = await browser.newPage({ viewport: { width: 1500, height: 1100 } })
        page.on('pageerror', (err) => errors.push(`page error: ${err.message}`))
        page.on('console', (message) => { if (message.type() === 'error') errors.push(`console: ${message.text()}`) })
      }
      const response = await page.goto(request.url, { waitUntil: 'domcontentloaded' })
      return { status: response ? response.status() : null }
    }
    case 'text':
      return page.evaluate((selector) => {
        const element = document.querySelector(selector)
        return element ? element.textContent : null
      }, request.selector)
    case 'eval':
      return page.evaluate(request.js)
    case 'fill':
      await page.fill(request.selector, request.text)
      return true
    case 'click':
      await page.click(request.selector)
      return true
    case 'press':
      await page.press(request.selector, request.key)
      return true
    case 'screenshot':
      fs.mkdirSync(path.dirname(path.resolve(request.path)), { recursive: true })
      await page.screenshot({ path: request.path, fullPage: true })
      return request.path
    case 'errors':
      return errors
    case 'close':
      if (browser) await browser.close()
      browser = null
      return true
    default:
      throw new Error(`unknown op ${JSON.stringify(request.op)}`)
  }
}

async function main () {
  const lines = readline.createInterface({ input: process.stdin })
  for await (const line of lines) {
    if (!line.trim()) continue
    let answer
    try {
      answer = { ok: await handle(JSON.parse(line)) }
    } catch (err) {
      answer = { error: err.message }
    }
    process.stdout.write(JSON.stringify(answer) + '\n')
  }
  if (browser) await browser.close()
}

main().catch((err) => {
  process.stderr.write(`browser.js: ${err.stack}\n`)
  process.exit(1)
})
