// Package apidoc holds the check that every exported name of platform/ has a
// doc comment, since the platform's go doc is the reference of the services
// built on it. Its test parses every non-test Go file under platform/ and
// lists each exported function, method, type, variable, constant, struct
// field and interface method that has none.
package apidoc
