// The client against the running service: API_BASE_URL names it, and
// ADMIN_EMAIL and ADMIN_PASSWORD its bootstrap admin (the Go test
// tests/clients starts the built binary and sets them).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ApiError, createApiClient, paginate } from "../src/index.js";

const baseUrl = process.env.API_BASE_URL;
const adminEmail = process.env.ADMIN_EMAIL;
const adminPassword = process.env.ADMIN_PASSWORD;

/** A fetch that counts its requests. */
function countingFetch() {
  const counted = (input, init) => {
    counted.requests++;
    return fetch(input, init);
  };
  counted.requests = 0;
  return counted;
}

describe("the users list", { skip: baseUrl ? false : "API_BASE_URL is not set" }, () => {
  const counting = countingFetch();
  const client = createApiClient({ baseUrl, fetch: counting });
  const signedUp = new Set();
  let token;

  before(async () => {
    for (let i = 0; i < 45; i++) {
      const email = `ts-walker${String(i).padStart(2, "0")}@example.com`;
      const { data, error, response } = await client.POST("/api/users", {
        body: { email, name: `TS Walker ${i}`, password: `ts-walker-password-${i}` },
      });
      assert.equal(response.status, 201, `sign up ${email}: ${JSON.stringify(error)}`);
      assert.equal(data.email, email);
      signedUp.add(email);
    }
    const { data, error } = await client.POST("/api/auth/login", {
      body: { grant_type: "password", username: adminEmail, password: adminPassword },
    });
    assert.ok(data, `admin login: ${JSON.stringify(error)}`);
    assert.equal(data.token_type.toLowerCase(), "bearer");
    token = data.access_token;
  });

  it("walks every user once, ten a page, by cursor", async () => {
    const requests = counting.requests;
    const seen = new Map();
    let last = 0;
    for await (const user of paginate(client, "/api/users", {
      params: { query: { limit: 10 } },
      headers: { Authorization: `Bearer ${token}` },
    })) {
      assert.ok(user.id > last, `user ${user.id} came after ${last}: the list is by id`);
      last = user.id;
      seen.set(user.email, (seen.get(user.email) ?? 0) + 1);
    }
    for (const email of [...signedUp, adminEmail]) {
      assert.equal(seen.get(email), 1, `${email} came ${seen.get(email) ?? 0} times`);
    }
    const pages = counting.requests - requests;
    assert.equal(pages, Math.ceil(seen.size / 10), `${seen.size} users in ${pages} pages`);
    assert.ok(pages > 3, `only ${pages} pages`);
  });

  it("keeps the filters on every page", async () => {
    const roles = new Set();
    let n = 0;
    for await (const user of paginate(client, "/api/users", {
      params: { query: { limit: 7, role: "member" } },
      headers: { Authorization: `Bearer ${token}` },
    })) {
      roles.add(user.role);
      n++;
    }
    assert.deepEqual([...roles], ["member"]);
    assert.equal(n, signedUp.size);
  });

  it("throws the problem of an answer other than 200", async () => {
    const walk = paginate(client, "/api/users", { params: { query: { limit: 10 } } });
    await assert.rejects(walk.next(), (err) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 401);
      assert.equal(err.problem.status, 401);
      return true;
    });
  });

  it("refuses a path that does not page by cursor, before any request", async () => {
    const requests = counting.requests;
    await assert.rejects(paginate(client, "/api/users/me").next(), TypeError);
    await assert.rejects(paginate(client, "toString").next(), TypeError);
    assert.equal(counting.requests, requests);
  });
});
