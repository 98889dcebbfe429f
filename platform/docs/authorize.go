package docs

import (
	"encoding/json"
	"fmt"
)

// passwordFlowOnly is a Swagger UI plugin, a JavaScript expression, that
// trims the Authorize dialog of an OAuth2 password flow to what its token
// endpoint reads: user name and password. Swagger UI would also ask for a
// client id, a client secret, where to send them, and the scopes to request
// (the router lists the roles as scopes); the login ignores all four, so
// their boxes only mislead. Other flows and schemes are left as they are.
//
// The rows go by the ids Swagger UI gives their inputs; the scopes go by
// handing the dialog the flow without them.
const passwordFlowOnly = `function () {
				var idle = ["password_type", "client_id_password", "client_secret_password"];
				return {
					wrapComponents: {
						Row: function (Original, system) {
							return function (props) {
								var asksIdle = system.React.Children.toArray(props.children).some(function (child) {
									return child && child.props && idle.indexOf(child.props.htmlFor) >= 0;
								});
								return asksIdle ? null : system.React.createElement(Original, props);
							};
						},
						oauth2: function (Original, system) {
							return function (props) {
								var schema = props.schema;
								if (schema && schema.get("flow") === "password") {
									schema = schema.delete("scopes").delete("allowedScopes");
								}
								return system.React.createElement(Original, Object.assign({}, props, {schema: schema}));
							};
						}
					}
				};
			}`

// offeredSchemes is a Swagger UI plugin, a JavaScript expression, that
// leaves out of the Authorize dialog every security scheme but the named
// ones (Config.Schemes). The dialog renders one "auths" block per group of
// schemes, the whole document's or an operation's; a group left with none
// is not drawn.
func offeredSchemes(names []string) (string, error) {
	list, err := json.Marshal(names)
	if err != nil {
		return "", fmt.Errorf("docs: schemes: %w", err)
	}
	return `function () {
				var offered = ` + string(list) + `;
				return {
					wrapComponents: {
						auths: function (Original, system) {
							return function (props) {
								var definitions = props.definitions.filter(function (scheme, name) {
									return offered.indexOf(name) >= 0;
								});
								return definitions.size ? system.React.createElement(Original, Object.assign({}, props, {definitions: definitions})) : null;
							};
						}
					}
				};
			}`, nil
}
