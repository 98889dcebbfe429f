package docs

// Warning returns the start-up warning to log when the docs UI is served
// without authentication. It names the environment variables of the
// service, which are what an operator sets.
func Warning() string {
	return "the docs UI, spec.json and developer tools are open to anyone: set DOCS_AUTH=true and DOCS_USERS=user:password to put them behind HTTP Basic auth"
}
