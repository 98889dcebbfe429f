package docs

// Warning returns the start-up warning to log when the docs UI is served
// without authentication.
func Warning() string {
	return "API docs UI authentication is disabled: set DOCS_AUTH=true and DOCS_USERS (apidocs useAuth and user accounts) to protect it"
}
