// One page, four contenders, three workloads: ?contender=…&workload=… picks them. The page exposes
// window.bench: `ready` once mounted, then `run()` feeds one batch per animation frame and reports
// the commits per component and a digest of what is on screen (the same for every contender).
import { AbstractAgent } from '@ag-ui/client'
import { createAgentStore, useAgentStore } from '@agent-state/react'
import { AbstractAgent as CopilotKitAbstractAgent, CopilotKitProvider, useAgent } from '@copilotkit/react-core/v2'
import { parse } from 'partial-json'
import { memo, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { feedAgentClass } from './feed'
import { visibleRows, workloads } from './workloads'

const params = new URLSearchParams(location.search)
const contender = params.get('contender')
const workload = params.get('workload')
const batches = workloads[workload]()

const commits = {}
const count = (name) => {
  commits[name] = (commits[name] ?? 0) + 1
}
const indexes = Array.from({ length: visibleRows }, (_, i) => i)

// ---- The same view for everyone: memoized components taking plain values.
const Title = memo(function Title({ title }) {
  count('title')
  return <h1>{title}</h1>
})
const Row = memo(function Row({ index, value }) {
  count('row')
  return (
    <li>
      {index}: {value}
    </li>
  )
})
const Document = memo(function Document({ text }) {
  count('document')
  return <article id="document">{text}</article>
})
const Message = memo(function Message({ text }) {
  count('message')
  return <p id="message">{text}</p>
})
const ListRow = memo(function ListRow({ label }) {
  count('listRow')
  return <li>{label}</li>
})
const List = memo(function List({ rows }) {
  count('list')
  return (
    <ul id="list">
      {rows.map((row) => (
        <ListRow key={row.id} label={row.label} />
      ))}
    </ul>
  )
})

const initialState = { state: { title: '', records: [] }, draft: { document: '' }, text: { rows: [] } }[workload]
const textOf = (message) => (typeof message?.content === 'string' ? message.content : '')
const draftOf = (messages) => {
  const call = messages.flatMap((message) => message.toolCalls ?? []).find((toolCall) => toolCall.function.name === 'write_document')
  return call ? (parse(call.function.arguments).document ?? '') : ''
}

// ---- agent-state: a hook per component, each selecting what it shows.
function agentState() {
  const agent = new (feedAgentClass(AbstractAgent))()
  const store = createAgentStore({ agent, initialState })
  function StateTitle() {
    return <Title title={useAgentStore(store, (s) => s.state.title)} />
  }
  function StateRow({ index }) {
    return <Row index={index} value={useAgentStore(store, (s) => s.state.records[index]?.value)} />
  }
  const views = {
    state: () => (
      <>
        <StateTitle />
        <ul id="rows">
          {indexes.map((i) => (
            <StateRow key={i} index={i} />
          ))}
        </ul>
      </>
    ),
    draft: function Draft() {
      return <Document text={useAgentStore(store, (s) => s.state.document)} />
    },
    text: function Text() {
      const message = useAgentStore(store, (s) => textOf(s.messages[s.messages.length - 1]))
      const rows = useAgentStore(store, (s) => s.state.rows)
      return (
        <>
          <Message text={message} />
          <List rows={rows} />
        </>
      )
    },
  }
  return { App: views[workload], start: () => store.run(), push: (events) => agent.push(events) }
}

// ---- @ag-ui/client by hand: useState at the top, set from the agent's subscriber callbacks; drafts
//      parsed from the tool-call buffer with partial-json, as apps commonly do.
function agUiClient() {
  const agent = new (feedAgentClass(AbstractAgent))({ initialState })
  function App() {
    const [state, setState] = useState(agent.state)
    const [messages, setMessages] = useState([])
    const [draft, setDraft] = useState('')
    useEffect(
      () =>
        agent.subscribe({
          onStateChanged: ({ state }) => setState(state),
          onMessagesChanged: ({ messages }) => setMessages(messages),
          // The buffer holds the arguments before this event's delta.
          onToolCallArgsEvent: ({ event, toolCallBuffer, toolCallName }) => {
            if (toolCallName === 'write_document') setDraft(parse(toolCallBuffer + event.delta).document ?? '')
          },
        }).unsubscribe,
      [],
    )
    count('app')
    if (workload === 'state')
      return (
        <>
          <Title title={state.title} />
          <ul id="rows">
            {indexes.map((i) => (
              <Row key={i} index={i} value={state.records[i]?.value} />
            ))}
          </ul>
        </>
      )
    if (workload === 'draft') return <Document text={draft} />
    return (
      <>
        <Message text={textOf(messages[messages.length - 1])} />
        <List rows={state.rows} />
      </>
    )
  }
  return { App, start: () => agent.runAgent(), push: (events) => agent.push(events) }
}

// ---- CopilotKit 1.74 (v2): useAgent in each component, the agent registered as self-managed.
function copilotKit() {
  const agent = new (feedAgentClass(CopilotKitAbstractAgent))({ initialState })
  const use = () => useAgent({ agentId: 'bench' }).agent
  function CkTitle() {
    const state = use().state
    count('ckTitle')
    return <Title title={state.title} />
  }
  function CkRows() {
    const records = use().state.records
    return (
      <ul id="rows">
        {indexes.map((i) => (
          <Row key={i} index={i} value={records[i]?.value} />
        ))}
      </ul>
    )
  }
  function CkDraft() {
    return <Document text={draftOf(use().messages)} />
  }
  function CkText() {
    const current = use()
    return <Message text={textOf(current.messages[current.messages.length - 1])} />
  }
  function CkList() {
    const rows = use().state.rows
    count('ckList')
    return <List rows={rows} />
  }
  const views = {
    state: () => (
      <>
        <CkTitle />
        <CkRows />
      </>
    ),
    draft: () => <CkDraft />,
    text: () => (
      <>
        <CkText />
        <CkList />
      </>
    ),
  }
  const View = views[workload]
  const App = () => (
    <CopilotKitProvider selfManagedAgents={{ bench: agent }} showDevConsole={false}>
      <View />
    </CopilotKitProvider>
  )
  return { App, start: () => agent.runAgent(), push: (events) => agent.push(events) }
}

// ---- The React floor: the same view fed values computed before the clock starts.
function floor() {
  const frames = precompute()
  let setFrame = () => {}
  let index = -1
  function App() {
    const [frame, set] = useState(frames.initial)
    setFrame = set
    count('app')
    if (workload === 'state')
      return (
        <>
          <Title title={frame.title} />
          <ul id="rows">
            {indexes.map((i) => (
              <Row key={i} index={i} value={frame.values[i]} />
            ))}
          </ul>
        </>
      )
    if (workload === 'draft') return <Document text={frame.document} />
    return (
      <>
        <Message text={frame.text} />
        <List rows={frame.rows} />
      </>
    )
  }
  return { App, start: () => {}, push: () => setFrame(frames.after[++index]) }
}

/** What each batch leaves on screen, for the floor. */
function precompute() {
  const after = []
  if (workload === 'state') {
    let frame = { title: '', values: indexes.map(() => undefined) }
    const initial = frame
    for (const batch of batches) {
      const values = [...frame.values]
      let { title } = frame
      for (const event of batch) {
        if (event.type === 'STATE_SNAPSHOT') {
          title = event.snapshot.title
          indexes.forEach((i) => {
            values[i] = event.snapshot.records[i].value
          })
        }
        if (event.type === 'STATE_DELTA') {
          const index = Number(event.delta[0].path.split('/')[2])
          if (index < visibleRows) values[index] = event.delta[0].value
        }
      }
      frame = values.some((value, i) => value !== frame.values[i]) || title !== frame.title ? { title, values } : frame
      after.push(frame)
    }
    return { initial, after }
  }
  let args = ''
  let text = ''
  let rows = []
  let frame = { document: '', text: '', rows }
  const initial = frame
  for (const batch of batches) {
    for (const event of batch) {
      if (event.type === 'TOOL_CALL_ARGS') args += event.delta
      if (event.type === 'TEXT_MESSAGE_CONTENT') text += event.delta
      if (event.type === 'STATE_SNAPSHOT') rows = event.snapshot.rows
    }
    const document = args ? (parse(args).document ?? '') : ''
    if (document !== frame.document || text !== frame.text || rows !== frame.rows) frame = { document, text, rows }
    after.push(frame)
  }
  return { initial, after }
}

const contenders = { 'agent-state': agentState, '@ag-ui/client': agUiClient, copilotkit: copilotKit, floor }
const { App, start, push } = contenders[contender]()
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()))

createRoot(document.getElementById('root')).render(<App />)

window.bench = {
  ready: (async () => {
    await nextFrame()
    await nextFrame()
    for (const key of Object.keys(commits)) delete commits[key]
  })(),
  async run() {
    const running = start()
    for (const batch of batches) {
      await nextFrame()
      push(batch)
    }
    await running
    await nextFrame()
    await nextFrame()
    const rows = [...document.querySelectorAll('#rows li')].map((li) => li.textContent).join('|')
    const digest = {
      rows,
      document: document.getElementById('document')?.textContent.length,
      message: document.getElementById('message')?.textContent.length,
      list: document.querySelectorAll('#list li').length,
    }
    return { commits: { ...commits }, digest, frames: batches.length }
  },
}
