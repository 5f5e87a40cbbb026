// An HTTP proxy in front of an OpenAI-compatible endpoint that counts what goes through it: calls, tokens, time, and
// each call's finish reason (`length` is an answer cut at its max_tokens). The benches put it between the bot and
// the LLM, so the figures are the endpoint's own, not the bot's account of them.
'use strict'

const fs = require('node:fs')
const http = require('node:http')

/**
 * Starts the proxy on a free local port; `meter` sums every call and `calls` lists them. With `transcript` (a file
 * path), each call's messages and reply are appended to it as a JSON line, to read what the model was asked and said.
 */
async function countingProxy (target, transcript = process.env.WAYFARER_LLM_TRANSCRIPT) {
  const upstream = new URL(target)
  const meter = { calls: 0, prompt: 0, completion: 0, ms: 0, failed: 0, cut: 0 }
  const calls = []
  const server = http.createServer((req, res) => {
    const started = Date.now()
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const forwarded = http.request({
        hostname: upstream.hostname,
        port: upstream.port,
        path: upstream.pathname.replace(/\/$/, '') + req.url.replace(/^\/v1/, ''),
        method: req.method,
        headers: { ...req.headers, host: upstream.host }
      }, (up) => {
        const body = []
        up.on('data', (c) => body.push(c))
        up.on('end', () => {
          const text = Buffer.concat(body)
          const call = { at: started, ms: Date.now() - started, status: up.statusCode, prompt: 0, completion: 0, finish: null, maxTokens: null }
          try { call.maxTokens = JSON.parse(Buffer.concat(chunks).toString('utf8')).max_tokens ?? null } catch {}
          meter.calls++
          meter.ms += call.ms
          try {
            const reply = JSON.parse(text.toString('utf8'))
            call.prompt = reply.usage?.prompt_tokens ?? 0
            call.completion = reply.usage?.completion_tokens ?? 0
            call.finish = reply.choices?.[0]?.finish_reason ?? null
            meter.prompt += call.prompt
            meter.completion += call.completion
            if (call.finish === 'length') meter.cut++
          } catch { meter.failed++ }
          calls.push(call)
          if (transcript) {
            let asked = null
            let said = null
            try { asked = JSON.parse(Buffer.concat(chunks).toString('utf8')).messages ?? null } catch {}
            try { said = JSON.parse(text.toString('utf8')).choices?.[0]?.message?.content ?? null } catch {}
            fs.appendFileSync(transcript, JSON.stringify({ at: new Date(started).toISOString(), ms: call.ms, asked, said }) + '\n')
          }
          res.writeHead(up.statusCode, up.headers)
          res.end(text)
        })
      })
      forwarded.on('error', (err) => { meter.failed++; res.writeHead(502); res.end(String(err)) })
      forwarded.end(Buffer.concat(chunks))
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/v1`, meter, calls, close: () => server.close() }
}

/** Exits with what to do when nothing answers at the LLM endpoint. */
async function checkEndpoint (url, hint = 'start the local one with `make llm` in another terminal, or pass --llm-url') {
  const models = `${url.replace(/\/$/, '')}/models`
  const ok = await new Promise((resolve) => {
    const req = http.get(models, (res) => { res.resume(); resolve(res.statusCode < 500) })
    req.on('error', () => resolve(false))
    req.setTimeout(5000, () => { req.destroy(); resolve(false) })
  })
  if (!ok) {
    console.error(`error: no LLM answers at ${url}; ${hint}`)
    process.exit(2)
  }
}

module.exports = { countingProxy, checkEndpoint }
