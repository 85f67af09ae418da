import { type AgentStore, createAgentThreads, persistThread } from '@agent-state/react'
import { agentUrl } from '../shared/view'

export interface Ingredient {
  icon?: string
  name: string
  amount: string
}

export interface Recipe {
  title: string
  skill_level: string
  cooking_time: string
  special_preferences: string[]
  ingredients: Ingredient[]
  instructions: string[]
}

export interface RecipeState {
  recipe: Recipe
}

const key = 'react-recipe'

/**
 * One store per conversation, each posting to the agent's URL with its own thread id (the built-in
 * transport, no @ag-ui/client): a run goes on in the background while another thread is shown. The
 * registry reads like a store (the shown thread's snapshot, with the list beside it), and every
 * thread survives a reload: the conversation and the recipe, your edits included.
 */
export const threads = createAgentThreads<RecipeState>({
  url: agentUrl('recipe'),
  persist: persistThread({ storage: localStorage, key }),
  initialState: {
    recipe: { title: '', skill_level: 'Intermediate', cooking_time: '30 min', special_preferences: [], ingredients: [], instructions: [] },
  },
})

// A hot reload of this module makes a new registry: the old one first writes what is pending and lets go.
import.meta.hot?.dispose(() => threads.dispose())

/** Shows a thread (a new one when no id is given). */
export function showThread(threadId?: string): void {
  threads.open(threadId)
}

// The registry shows again the thread that was on screen before a reload; a first visit starts one.
if (threads.getState().activeThreadId === undefined) showThread(threads.getState().threads[0]?.id)

/** The thread on screen: commands go to its store. */
export function shownStore(): AgentStore<RecipeState> {
  const id = threads.getState().activeThreadId
  return (id === undefined ? undefined : threads.store(id)) ?? threads.open()
}

/** A new chat, unless the one on screen has not started yet. */
export function newThread(): void {
  if (threads.getState().messages.length > 0) showThread()
}

/** Deletes the thread on screen and shows the most recent other one (or a new one). */
export async function deleteShownThread(): Promise<void> {
  const id = threads.getState().activeThreadId
  if (id === undefined) return
  await threads.delete(id)
  showThread(threads.getState().threads[0]?.id)
}

/** A local edit: shown at once, kept over the agent's updates while it runs, sent with the next run. */
export function editRecipe(change: (recipe: Recipe) => Recipe) {
  shownStore().setState((state) => ({ ...state, recipe: change(state.recipe) }))
}

// The devtools panel, in development only (or a build made with VITE_DEVTOOLS=true, as the browser tests do):
// a production build has none of it.
if (import.meta.env.DEV || import.meta.env.VITE_DEVTOOLS === 'true') import('@agent-state/devtools/panel').then(({ mountDevtools }) => mountDevtools(threads))
