// Package library checks the starter's library mode from outside: a copy
// of the repository renamed with starter rename --library requires the
// platform as a module version, served by a file-system proxy made from
// this repository's platform/, and builds, grows a resource and tests it
// on SQLite and PostgreSQL without a platform/ folder of its own.
package library
