package docs

// DefaultRealm is the Basic-auth realm when GuardConfig.Realm is empty.
const DefaultRealm = "Developer"

// GuardConfig configures Guard.
type GuardConfig struct {
	// Users maps user names to the passwords Guard accepts. With no users
	// every request is refused: a guard that was asked for never fails open.
	//
	// Required.
	Users map[string]string

	// Realm names the protection space in the WWW-Authenticate challenge;
	// browsers show it in their login prompt.
	//
	// Optional. Default: "Developer"
	Realm string
}

// GuardConfigDefault is the default guard configuration. It has no Users,
// which Guard requires to let anyone in.
var GuardConfigDefault = GuardConfig{
	Realm: DefaultRealm,
}

// guardConfigDefault fills the zero fields of cfg with their defaults.
func guardConfigDefault(cfg GuardConfig) GuardConfig {
	if cfg.Realm == "" {
		cfg.Realm = GuardConfigDefault.Realm
	}
	return cfg
}
