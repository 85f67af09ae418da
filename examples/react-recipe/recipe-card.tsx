import { useAgentStore } from '@agent-state/react'
import { editRecipe, type Ingredient, threads } from './store'

const skillLevels = ['Beginner', 'Intermediate', 'Advanced']
const cookingTimes = ['5 min', '15 min', '30 min', '45 min', '60+ min']
const preferences = ['High Protein', 'Low Carb', 'Spicy', 'Budget-Friendly', 'One-Pot Meal', 'Vegetarian', 'Vegan']

/** The shared state, editable at any time: edits made while the agent streams are kept over its updates. */
export function RecipeCard() {
  const recipe = useAgentStore(threads, (s) => s.state.recipe)
  const live = useAgentStore(threads, (s) => s.status === 'running')

  const setIngredient = (index: number, change: Partial<Ingredient>) =>
    editRecipe((r) => ({ ...r, ingredients: r.ingredients.map((item, i) => (i === index ? { ...item, ...change } : item)) }))
  const setInstruction = (index: number, text: string) =>
    editRecipe((r) => ({ ...r, instructions: r.instructions.map((step, i) => (i === index ? text : step)) }))
  const togglePreference = (name: string) =>
    editRecipe((r) => ({
      ...r,
      special_preferences: r.special_preferences.includes(name) ? r.special_preferences.filter((p) => p !== name) : [...r.special_preferences, name],
    }))
  const empty = recipe.ingredients.length === 0 && recipe.instructions.length === 0

  return (
    <section className="panel" aria-label="Recipe">
      <div className="panel-head">
        <strong>Recipe card</strong>
        <span>shared with the agent: edit anything, any time</span>
      </div>
      <div className="panel-body">
        <input
          className="field recipe-title"
          aria-label="Recipe title"
          placeholder="Untitled recipe"
          value={recipe.title}
          onChange={(event) => editRecipe((r) => ({ ...r, title: event.target.value }))}
        />
        <div className="recipe-meta">
          <label>
            Skill
            <select aria-label="Skill level" value={recipe.skill_level} onChange={(event) => editRecipe((r) => ({ ...r, skill_level: event.target.value }))}>
              {withCurrent(skillLevels, recipe.skill_level).map((level) => (
                <option key={level}>{level}</option>
              ))}
            </select>
          </label>
          <label>
            Time
            <select aria-label="Cooking time" value={recipe.cooking_time} onChange={(event) => editRecipe((r) => ({ ...r, cooking_time: event.target.value }))}>
              {withCurrent(cookingTimes, recipe.cooking_time).map((time) => (
                <option key={time}>{time}</option>
              ))}
            </select>
          </label>
        </div>
        <div className="chips">
          {preferences.map((name) => (
            <button
              type="button"
              key={name}
              className={`chip ${recipe.special_preferences.includes(name) ? 'on' : ''}`}
              aria-pressed={recipe.special_preferences.includes(name)}
              onClick={() => togglePreference(name)}
            >
              {name}
            </button>
          ))}
        </div>
        {empty && !live ? <p className="placeholder">No recipe yet. Ask for one in the chat, or start typing your own.</p> : null}
        <div className="recipe-columns">
          <div>
            <h3>Ingredients</h3>
            <ul className="ingredients" data-testid="ingredients">
              {recipe.ingredients.map((ingredient, index) => (
                <li key={index} className="ingredient">
                  <span className="monogram">{ingredient.icon || ingredient.name.charAt(0).toUpperCase() || '·'}</span>
                  <span className="lines">
                    <input
                      className="field"
                      aria-label={`Ingredient ${index + 1}`}
                      placeholder="Ingredient"
                      value={ingredient.name}
                      onChange={(event) => setIngredient(index, { name: event.target.value })}
                    />
                    <input
                      className="field amount"
                      aria-label={`Amount ${index + 1}`}
                      placeholder="Amount"
                      value={ingredient.amount}
                      onChange={(event) => setIngredient(index, { amount: event.target.value })}
                    />
                  </span>
                  <button
                    type="button"
                    className="remove"
                    aria-label={`Remove ${ingredient.name}`}
                    onClick={() => editRecipe((r) => ({ ...r, ingredients: r.ingredients.filter((_, i) => i !== index) }))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className="button small"
              onClick={() => editRecipe((r) => ({ ...r, ingredients: [...r.ingredients, { name: '', amount: '' }] }))}
            >
              + Add ingredient
            </button>
          </div>
          <div>
            <h3>Instructions</h3>
            <ol className="instructions" data-testid="instructions">
              {recipe.instructions.map((step, index) => (
                <li key={index}>
                  <textarea
                    className="field"
                    aria-label={`Instruction ${index + 1}`}
                    placeholder="Describe this step"
                    rows={2}
                    value={step}
                    onChange={(event) => setInstruction(index, event.target.value)}
                  />
                  <button
                    type="button"
                    className="remove"
                    aria-label={`Remove step ${index + 1}`}
                    onClick={() => editRecipe((r) => ({ ...r, instructions: r.instructions.filter((_, i) => i !== index) }))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ol>
            <button type="button" className="button small" onClick={() => editRecipe((r) => ({ ...r, instructions: [...r.instructions, ''] }))}>
              + Add step
            </button>
          </div>
        </div>
      </div>
    </section>
  )
}

const withCurrent = (options: string[], current: string) => (current && !options.includes(current) ? [...options, current] : options)
