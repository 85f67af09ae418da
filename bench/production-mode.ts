// Imported first by index.ts, so it runs before any module that reads NODE_ENV is evaluated.
// @ag-ui/client deep-clones and freezes state and messages on every event when NODE_ENV is
// "development" or "test" or VITEST_WORKER_ID is set; the comparison is against its production
// mode. React picks its build from NODE_ENV when it loads, too.
process.env.NODE_ENV = 'production'
delete process.env.VITEST_WORKER_ID

export {}
