// Package clientip finds the address of the client behind a request: the
// TCP peer, or, when the peer is a trusted proxy, the right-most address
// of the forwarding header that no trusted proxy wrote. The left-most
// addresses of that header are whatever the client sent, so they never
// decide anything.
//
// New returns the middleware that makes the address available to later
// handlers through From; Key turns an address into the fixed-length key a
// throttle counts it under (an IPv6 client owns its /64).
//
//	h, err := clientip.New(clientip.Config{TrustedProxies: []string{"10.0.0.0/8"}})
//	app.Use(h)
//	app.Post("/login", func(c *fiber.Ctx) error {
//		key := clientip.Key(clientip.From(c))
//		...
//	})
package clientip
