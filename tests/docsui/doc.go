// Package docsui checks the platform's interactive docs UI in a real
// browser (Chromium through chromedp): the page loads with nothing fetched
// from outside the server, and the Authorize dialog's password flow signs
// a user in. It lives in the service's module so that the browser driver
// stays out of the platform module's dependencies.
package docsui
