// Package database provides the Bun database of the service: opened by DSN
// on PostgreSQL or SQLite with sensible pools (and read replicas), paging
// over a select query, and the catalog of the models that checks the
// database's health, creates their missing tables and indexes (sync) and
// describes them in DBML.
//
// Paginate fetches one row past the page, so has_next is always exact, and
// counts the total only when the page does not show it, with a strategy
// chosen per call: CountAuto (the default: an exact count within a time
// budget, else the planner's estimate), CountExact, CountEstimate,
// CountCapped or CountNone. WithKeyset pages by signed cursors instead of
// OFFSET, so deep pages cost what the first one does. The example of
// Paginate pages a table of a SQLite database.
package database
