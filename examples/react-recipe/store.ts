import { HttpAgent } from '@ag-ui/client'
import { createAgentStore } from '@agent-state/react'
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

export const store = createAgentStore<RecipeState>({
  agent: new HttpAgent({ url: agentUrl('recipe') }),
  // The thread survives a reload: the conversation and the recipe, your edits included.
  persist: { storage: localStorage, key: 'react-recipe' },
  initialState: {
    recipe: { title: '', skill_level: 'Intermediate', cooking_time: '30 min', special_preferences: [], ingredients: [], instructions: [] },
  },
})

/** A local edit: shown at once, kept over the agent's updates while it runs, sent with the next run. */
export function editRecipe(change: (recipe: Recipe) => Recipe) {
  store.setState((state) => ({ ...state, recipe: change(state.recipe) }))
}
