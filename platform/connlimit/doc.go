// Package connlimit bounds the connections a server holds open, and keeps
// its accept loop alive when the process runs out of files.
//
// New wraps a net.Listener: a connection past the cap of its client
// address, or past the cap of all connections, is answered with a short
// 503 and closed at once, so accept never blocks and one client holding
// connections open cannot take the slots (or the file descriptors) every
// other client needs. An accept that fails for want of resources (EMFILE,
// ENFILE, ENOBUFS, ENOMEM) is retried after a pause that doubles from 5ms
// to 1s, as net/http's server does, instead of ending the server.
//
// A client address is counted under clientip.Key of the TCP peer, so an
// IPv6 client owns its /64. Trusted proxies are counted only in the total:
// behind one, every client shares the proxy's address.
//
//	ln, err := net.Listen("tcp", ":8080")
//	...
//	limited, err := connlimit.New(ln, connlimit.Config{TrustedProxies: []string{"10.0.0.0/8"}})
//	...
//	err = app.Listener(limited)
package connlimit
