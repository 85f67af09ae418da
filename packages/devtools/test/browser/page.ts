// The page the browser test serves: a store on a scripted agent replaying a recorded predictive-document run, with the panel mounted.
import { createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { mountDevtools } from '@agent-state/devtools/panel'
import recording from '../../../core/test/fixtures/recordings/02-predictive-document-approve.agent-framework.json'

const events = recording.events as never[]
const agent = new ScriptedAgent({ runs: [events, recording.nextRuns[0]!.events as never[]], delay: 2 })
const store = createAgentStore({ agent, initialState: { document: '' } })
const devtools = mountDevtools(store)

const documentView = document.querySelector('#document')!
store.subscribe((snapshot) => {
  documentView.textContent = (snapshot.state as { document: string }).document
})

Object.assign(window, {
  store,
  devtools,
  run: () => store.run({ messages: recording.input.messages.map((m, i) => ({ ...m, id: `m${i}` })) as never }),
  approve: () => store.approve(),
})
