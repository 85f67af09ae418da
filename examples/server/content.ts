// What the scripted models "know": a few recipes, stories and plans, chosen by keywords in the request.
// Shapes follow the AG-UI dojo demos, so the example apps also work against those servers.

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

export const cookingTimes = ['5 min', '15 min', '30 min', '45 min', '60+ min']

const recipes: { keywords: RegExp; recipe: Recipe }[] = [
  {
    keywords: /carbonara|pasta|spaghetti/i,
    recipe: {
      title: 'Spaghetti Carbonara',
      skill_level: 'Intermediate',
      cooking_time: '30 min',
      special_preferences: [],
      ingredients: [
        { name: 'Spaghetti', amount: '400 g' },
        { name: 'Guanciale', amount: '150 g, diced' },
        { name: 'Eggs', amount: '3 large + 1 yolk' },
        { name: 'Pecorino Romano', amount: '60 g, finely grated' },
        { name: 'Black pepper', amount: '2 tsp, freshly cracked' },
        { name: 'Sea salt', amount: 'for the pasta water' },
      ],
      instructions: [
        'Bring a large pot of well-salted water to the boil.',
        'Crisp the guanciale in a cold pan over medium heat until golden.',
        'Whisk the eggs, yolk, pecorino and most of the pepper into a thick paste.',
        'Cook the spaghetti until just al dente; keep a mug of the pasta water.',
        'Off the heat, toss the pasta with the guanciale, then the egg mixture.',
        'Loosen with pasta water until glossy and serve with the rest of the pepper.',
      ],
    },
  },
  {
    keywords: /curry|chickpea|indian|spinach/i,
    recipe: {
      title: 'Chickpea & Spinach Curry',
      skill_level: 'Beginner',
      cooking_time: '45 min',
      special_preferences: ['Vegetarian', 'One-Pot Meal'],
      ingredients: [
        { name: 'Chickpeas', amount: '2 tins, drained' },
        { name: 'Baby spinach', amount: '200 g' },
        { name: 'Onion', amount: '1 large, chopped' },
        { name: 'Garlic', amount: '3 cloves, grated' },
        { name: 'Ginger', amount: '2 cm, grated' },
        { name: 'Curry paste', amount: '3 tbsp' },
        { name: 'Coconut milk', amount: '400 ml' },
      ],
      instructions: [
        'Soften the onion in a little oil for eight minutes.',
        'Add the garlic, ginger and curry paste; fry for one minute.',
        'Stir in the chickpeas and coconut milk and simmer for twenty minutes.',
        'Wilt the spinach into the pot and season to taste.',
        'Serve with rice or warm flatbread.',
      ],
    },
  },
  {
    keywords: /pancake|breakfast|brunch/i,
    recipe: {
      title: 'Fluffy Buttermilk Pancakes',
      skill_level: 'Beginner',
      cooking_time: '15 min',
      special_preferences: ['Vegetarian'],
      ingredients: [
        { name: 'Plain flour', amount: '200 g' },
        { name: 'Buttermilk', amount: '300 ml' },
        { name: 'Eggs', amount: '2' },
        { name: 'Butter', amount: '30 g, melted' },
        { name: 'Baking powder', amount: '2 tsp' },
        { name: 'Sugar', amount: '1 tbsp' },
      ],
      instructions: [
        'Whisk the flour, baking powder and sugar together.',
        'Beat the buttermilk, eggs and melted butter in a jug.',
        'Fold the wet into the dry until just combined; lumps are fine.',
        'Cook ladlefuls on a hot buttered pan until bubbles pop, then flip.',
        'Serve stacked, with maple syrup and berries.',
      ],
    },
  },
]

const fallbackRecipe: Recipe = {
  title: 'Roasted Tomato Soup',
  skill_level: 'Beginner',
  cooking_time: '45 min',
  special_preferences: ['Vegetarian'],
  ingredients: [
    { name: 'Ripe tomatoes', amount: '1 kg, halved' },
    { name: 'Red onion', amount: '1, quartered' },
    { name: 'Garlic', amount: '4 cloves' },
    { name: 'Olive oil', amount: '3 tbsp' },
    { name: 'Vegetable stock', amount: '500 ml' },
    { name: 'Basil', amount: 'a handful' },
  ],
  instructions: [
    'Roast the tomatoes, onion and garlic with the oil at 200 °C for 30 minutes.',
    'Tip everything into a pot with the stock and bring to a simmer.',
    'Blend until smooth, then tear in the basil.',
    'Season and serve with crusty bread.',
  ],
}

/** The recipe a request names, or undefined when it names none. */
export function findRecipe(request: string): Recipe | undefined {
  return recipes.find(({ keywords }) => keywords.test(request))?.recipe
}

export const defaultRecipe = fallbackRecipe

/** Another take on a recipe, one per attempt: an answer asked again never writes the same card. */
const takes: { note: string; apply: (recipe: Recipe) => Recipe }[] = [
  {
    note: 'a quicker weeknight take',
    apply: (recipe) => ({
      ...recipe,
      title: recipe.title.startsWith('Weeknight ') ? recipe.title : `Weeknight ${recipe.title}`,
      skill_level: 'Beginner',
      cooking_time: cookingTimes[Math.max(0, cookingTimes.indexOf(recipe.cooking_time) - 1)] ?? recipe.cooking_time,
    }),
  },
  {
    note: 'lemon and herbs to finish',
    apply: (recipe) =>
      recipe.title.endsWith(' with Lemon & Herbs')
        ? recipe
        : {
            ...recipe,
            title: `${recipe.title} with Lemon & Herbs`,
            ingredients: [...recipe.ingredients, { name: 'Lemon', amount: '1, zested' }, { name: 'Flat-leaf parsley', amount: 'a small bunch' }],
            instructions: [...recipe.instructions, 'Finish with the lemon zest and chopped parsley.'],
          },
  },
]

/** The take of attempt `attempt` (1, 2, …); the first answer (0) takes none. */
export function takeFor(attempt: number): { note: string; apply: (recipe: Recipe) => Recipe } | undefined {
  return attempt === 0 ? undefined : takes[(attempt - 1) % takes.length]
}

/** Meat and dairy swaps for "make it vegetarian / vegan", keyed by a word in the ingredient name. */
const swaps: { match: RegExp; vegan: boolean; to: Ingredient; note: string }[] = [
  {
    match: /guanciale|pancetta|bacon/i,
    vegan: false,
    to: { name: 'Smoked mushrooms', amount: '200 g, sliced thin' },
    note: 'smoked mushrooms instead of guanciale',
  },
  { match: /chicken|beef|pork/i, vegan: false, to: { name: 'Firm tofu', amount: '300 g, cubed' }, note: 'tofu instead of meat' },
  { match: /^eggs?$/i, vegan: true, to: { name: 'Silken tofu', amount: '150 g, blended' }, note: 'silken tofu instead of eggs' },
  { match: /buttermilk|milk/i, vegan: true, to: { name: 'Oat milk + lemon juice', amount: '300 ml + 1 tbsp' }, note: 'oat milk instead of dairy' },
  { match: /butter/i, vegan: true, to: { name: 'Olive oil', amount: '2 tbsp' }, note: 'olive oil instead of butter' },
  { match: /pecorino|parmesan|cheese/i, vegan: true, to: { name: 'Nutritional yeast', amount: '4 tbsp' }, note: 'nutritional yeast instead of cheese' },
]

export function swapFor(ingredient: Ingredient, vegan: boolean) {
  return swaps.find((swap) => swap.match.test(ingredient.name) && (vegan || !swap.vegan))
}

/**
 * Stories the writer knows by keyword; anything else gets a story built around the topic. Documents
 * are plain text: the title on the first line, then paragraphs separated by blank lines.
 */
const stories: { keywords: RegExp; document: string }[] = [
  {
    keywords: /lighthouse/i,
    document: `The Last Keeper of Gull Point

Mara had kept the lighthouse at Gull Point for thirty-one years, long after the ships stopped needing it. Every evening she climbed the hundred and twelve steps, wound the old clockwork and watched the beam sweep the empty sea.

One November night the radio crackled with a voice she did not know: a small fishing boat, engine dead, drifting towards the rocks in the fog. The harbour was too far away. The beam was all they had.

Mara stayed at the lamp until dawn, turning it by hand when the clockwork froze. When the fog lifted, the little boat was bobbing safely in the cove below, and three tired fishermen were waving up at her window.`,
  },
  {
    keywords: /dog|puppy/i,
    document: `The Brave Little Dog

Once upon a time, there was a dog named Max who lived at the edge of a busy park. Max loved to chase butterflies, greet every jogger and nap in the warm patch of grass by the fountain.

One rainy afternoon, Max heard a tiny sound coming from under a bench: a lost kitten, soaked and shivering. Max lay down beside her until she stopped trembling, then nudged her gently towards the path.

Step by careful step, he led her across the park and all the way home, where a little girl was crying at the gate. From that day on, the kitten followed Max everywhere, and the park had two guardians instead of one.`,
  },
  {
    keywords: /robot/i,
    document: `A Robot Learns to Garden

Unit Seven was built to weld car doors, but the factory closed and left it standing in an empty yard. For a year it did nothing but watch the weeds push up through the cracked concrete.

Then a seed landed on its shoulder. Unit Seven studied it for three days, measured the light, and carried it carefully to the one patch of soil by the gate. It poured water from its coolant line, one precise drop at a time.

By spring the yard was full of sunflowers, every row perfectly straight. Children came to look through the fence, and Unit Seven, for the first time in its life, had visitors.`,
  },
]

/** Stories around a topic, one per version; `{topic}` is a noun phrase such as "a lost umbrella". */
const storyTemplates = [
  `Nobody in town expected much from {topic}. It was an ordinary morning, grey at the edges, when everything quietly began to change.

By noon the news had travelled from the bakery to the harbour. People stopped on street corners to talk about {topic}, and for once they were smiling.

When evening came, the streetlights flickered on one by one. Whatever happened next, the town would remember this day: the day of {topic}, when it all felt a little less ordinary.`,
  `It started, as these things do, on a Tuesday. Ada found {topic} at the bottom of the garden, half hidden under the wet leaves, and could not stop thinking about it.

She told her brother, who laughed, and then her neighbour, who did not. By the weekend half the street had come to see {topic} for themselves.

Years later, when people asked how the street had become friends, Ada would smile and tell them about {topic}, and about that ordinary Tuesday.`,
  `The train was late, the station was cold, and the only thing worth talking about was {topic}. The stationmaster had seen a lot in forty years, but never anything like it.

One by one the waiting passengers put down their phones. A child asked a question, a stranger answered it, and soon the whole platform was sharing stories about {topic}.

When the train finally pulled in, nobody hurried to board. They had found, in {topic}, a reason to stay a moment longer.`,
]

/** What to write about when a request names nothing ("Write a story"), one per version. */
const defaultTopics = ['a lost umbrella', 'an unexpected visitor', 'the night train']

/** The words of a request that ask for a story without saying what about: "Please write me a short story". */
const requestWords =
  /^(?:please\s+)?(?:(?:write|tell|give|draft)\s+)?(?:me\s+)?(?:(?:a|an|another|one)\s+(?:(?:short|long|little|new|funny|sad|bedtime)\s+)*(?:story|tale|poem)\b\s*)?/i

/** What is left is not a topic when it starts with an instruction or a preposition ("Add another paragraph", "for my son"). */
const notATopic = /^(?:add|continue|make|give|shorten|rewrite|change|write|tell|draft|please|for|to|with|that|where|in|and)\b/i

/**
 * The topic of a request: "Write a story about a lighthouse keeper" → "a lighthouse keeper", "A tale
 * of two cities" → "two cities", "Dragons" → "Dragons"; undefined when it names none ("Write a story").
 */
export function topicOf(request: string): string | undefined {
  const text = request.trim().replace(/[.!?]+$/, '')
  const about = /\b(?:about|of|on)\s+(.+)$/i.exec(text)?.[1]
  const rest = text.replace(requestWords, '').trim()
  const topic = about ?? (rest === '' || notATopic.test(rest) || rest.split(/\s+/).length > 6 ? undefined : rest)
  return topic?.replace(/^(A|An|The)\b/, (article) => article.toLowerCase())
}

/** "a lighthouse keeper" → "The Lighthouse Keeper"; "two cities" → "Two Cities". */
export function titleOf(topic: string): string {
  const article = /^(a|an|the)\s+/i
  const words = topic.replace(article, '').split(/\s+/)
  const title = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ')
  return article.test(topic) ? `The ${title}` : title
}

/**
 * The story a request asks for, as plain text. `version` counts the drafts already answered in the
 * thread: asking again gives a new text, so the new draft shows as changes and Reject has something to undo.
 */
export function storyFor(request: string, version = 0): string {
  const known = stories.find(({ keywords }) => keywords.test(request))
  if (known) return version === 0 ? known.document : withEnding(known.document, endings[(version - 1) % endings.length]!)
  const topic = topicOf(request) ?? defaultTopics[version % defaultTopics.length]!
  const template = storyTemplates[version % storyTemplates.length]!
  return `${titleOf(topic)}\n\n${template.replaceAll('{topic}', topic)}`
}

/** New paragraphs for "continue" / "add a paragraph", chosen by how long the document already is. */
const continuations = [
  'Years later, people still told the story on winter nights, each version a little grander than the last. Nobody minded; the heart of it never changed.',
  'And if you walk past on a quiet evening, you may still catch a glimpse of how it all began, if you know where to look.',
  'That, of course, was only the beginning. The next chapter would ask for even more courage, and it was already on its way.',
]

/** `version`: a later attempt at the same request adds another paragraph. */
export function continueStory(document: string, version = 0): string {
  const paragraphs = document.split(/\n\n+/).length
  return `${document.trimEnd()}\n\n${continuations[(paragraphs + version) % continuations.length]}`
}

/** Last sentences for "a different ending": the last paragraph keeps its start and changes its end. */
const endings = [
  'In the end nobody could say exactly what had changed, only that everyone slept a little easier that night.',
  'And when the first light came, it found them all still laughing about it, as if the whole thing had been a dream.',
]

/** The document with the last sentence of its last paragraph replaced by `ending`. */
function withEnding(document: string, ending: string): string {
  const paragraphs = document.trimEnd().split(/\n\n+/)
  const last = paragraphs.pop() ?? ''
  const sentences = last.match(/[^.!?]+[.!?]+\s*/g) ?? [last]
  const kept = sentences.length > 1 ? sentences.slice(0, -1).join('') : ''
  return [...paragraphs, `${kept}${ending}`].join('\n\n')
}

/** `version`: a later attempt at the same request picks another of the endings the story does not have. */
export function rewriteEnding(document: string, version = 0): string {
  const last = document.trimEnd().split(/\n\n+/).at(-1) ?? ''
  const fresh = endings.filter((candidate) => !last.includes(candidate))
  return withEnding(document, fresh[version % fresh.length] ?? endings[0]!)
}

/** The title and one paragraph: the first, or on a later attempt (`version`) the last. */
export function shortenStory(document: string, version = 0): string {
  const [title, ...paragraphs] = document.split(/\n\n+/)
  const kept = version % 2 === 0 ? paragraphs[0] : paragraphs.at(-1)
  return [title, kept].filter(Boolean).join('\n\n')
}

export interface PlanStep {
  description: string
  status: 'enabled' | 'disabled' | 'executing' | 'completed'
}

const plans: { keywords: RegExp; steps: (request: string) => string[] }[] = [
  {
    keywords: /mars|space|rocket|moon/i,
    steps: () => [
      'Assemble a crew of six and a backup crew',
      'Train for eighteen months of isolation',
      'Book the 2031 launch window',
      'Pack food and water for nine hundred days',
      'Launch and cruise for seven months',
      'Land in Jezero Crater and set up the habitat',
    ],
  },
  {
    keywords: /trip|travel|holiday|vacation|visit/i,
    steps: (request) => {
      const place = /\bto\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)/.exec(request)?.[1] ?? 'your destination'
      return [
        'Pick the dates and set a budget',
        `Book flights to ${place}`,
        'Reserve places to stay',
        'Sketch a day-by-day itinerary',
        'Arrange travel insurance',
        'Pack and double-check documents',
      ]
    },
  },
  {
    keywords: /launch|product|release|ship/i,
    steps: () => [
      'Write down the one goal of the launch',
      'Draft the announcement and the changelog',
      'Prepare the landing page and screenshots',
      'Brief support on the likely questions',
      'Ship it and post the announcement',
      'Review the numbers a week later',
    ],
  },
  {
    keywords: /party|birthday|wedding|dinner/i,
    steps: () => [
      'Settle the date and the guest list',
      'Book the venue',
      'Send the invitations',
      'Plan the menu and order the cake',
      'Decorate the room on the morning',
    ],
  },
]

export function planFor(request: string): PlanStep[] {
  const known = plans.find(({ keywords }) => keywords.test(request))
  const goal = request.trim().replace(/[.!?]+$/, '')
  const descriptions = known
    ? known.steps(request)
    : [`Clarify the goal: ${goal}`, 'Break it into milestones', 'Gather what each milestone needs', 'Do the first milestone', 'Review and adjust the rest']
  return descriptions.map((description) => ({ description, status: 'enabled' }))
}
