// Mutation runs only: every property test uses one fixed seed, so whether a mutant is killed never
// depends on the random inputs of that run.
import fc from 'fast-check'

fc.configureGlobal({ seed: 20261201 })
