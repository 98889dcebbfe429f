// Package workflow checks the developer workflow of the repository without
// Docker or task installed: the Taskfile points at packages, paths and
// pinned tools that exist; the Dockerfile builds a static, non-root,
// self-probing image; docker-compose.yml waits for a healthy PostgreSQL;
// .env.example documents every variable the service reads; and the binary
// built as the Dockerfile builds it is static and answers its healthcheck,
// spec and version subcommands. The starter's tests grow and shrink a copy
// of the repository, on SQLite and on the PostgreSQL of pgtest.
package workflow
