import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import { StringDecoder } from 'node:string_decoder'

type Listener = (() => void) | null

/**
 * The part of XMLHttpRequest an AG-UI reader uses, over node:http, as a browser behaves: the body
 * decoded as UTF-8 into a growing `responseText`, `readystatechange` and `progress` as bytes
 * arrive, and on a network failure `readyState` 4 with status 0 and no text, then `error`.
 * `abort()` really closes the connection. Node has no XMLHttpRequest; tests install this one.
 */
export class NodeXmlHttpRequest {
  /** Every request sent, in order: what the server was asked, from the client's side. */
  static sent: { method: string; url: string; headers: Record<string, string>; body: string }[] = []

  readyState = 0
  status = 0
  statusText = ''
  responseText = ''
  onreadystatechange: Listener = null
  onprogress: Listener = null
  onload: Listener = null
  onerror: Listener = null
  onabort: Listener = null

  private method = 'GET'
  private url = ''
  private headers: Record<string, string> = {}
  private request: ClientRequest | undefined
  private response: IncomingMessage | undefined
  private finished = false

  open(method: string, url: string) {
    this.method = method
    this.url = url
    this.readyState = 1
    this.onreadystatechange?.()
  }

  setRequestHeader(name: string, value: string) {
    const previous = this.headers[name]
    this.headers[name] = previous === undefined ? value : `${previous}, ${value}`
  }

  getResponseHeader(name: string): string | null {
    const value = this.response?.headers[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : String(value)
  }

  send(body: string) {
    NodeXmlHttpRequest.sent.push({ method: this.method, url: this.url, headers: { ...this.headers }, body })
    // Node's own decoder, not the global TextDecoder: a test may remove that, as React Native lacks it.
    const decoder = new StringDecoder('utf8')
    const request = httpRequest(this.url, { method: this.method, headers: this.headers }, (response) => {
      this.response = response
      this.status = response.statusCode ?? 0
      this.statusText = response.statusMessage ?? ''
      this.readyState = 2
      this.onreadystatechange?.()
      response.on('data', (chunk: Buffer) => {
        if (this.finished) return
        if (this.readyState === 2) {
          this.readyState = 3
          this.onreadystatechange?.()
        }
        this.responseText += decoder.write(chunk)
        this.onprogress?.()
      })
      response.on('end', () => {
        if (this.finished) return
        this.finished = true
        this.responseText += decoder.end()
        this.readyState = 4
        this.onreadystatechange?.()
        this.onload?.()
      })
      response.on('error', () => this.fail())
      response.on('close', () => {
        if (!response.complete) this.fail()
      })
    })
    request.on('error', () => this.fail())
    this.request = request
    request.end(body)
  }

  abort() {
    if (this.finished) return
    this.finished = true
    this.request?.destroy()
    this.status = 0
    this.responseText = ''
    this.readyState = 4
    this.onreadystatechange?.()
    this.onabort?.()
    this.readyState = 0
  }

  private fail() {
    if (this.finished) return
    this.finished = true
    this.status = 0
    this.responseText = ''
    this.readyState = 4
    this.onreadystatechange?.()
    this.onerror?.()
  }
}
