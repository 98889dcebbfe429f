// Compiled by npm run typecheck, never run: what a caller writes with the
// client must type-check against the contract, and what it must not write
// must not.
import { createApiClient, paginate, type ItemOf } from "../src/index.js";

const client = createApiClient({ baseUrl: "http://localhost:3000" });

export async function emails(token: string): Promise<string[]> {
  const out: string[] = [];
  for await (const user of paginate(client, "/api/users", {
    params: { query: { limit: 10, role: "member" } },
    headers: { Authorization: `Bearer ${token}` },
  })) {
    out.push(user.email);
    const id: number = user.id;
    void id;
  }
  return out;
}

export async function logIn(email: string, password: string): Promise<string | undefined> {
  const { data } = await client.POST("/api/auth/login", {
    body: { grant_type: "password", username: email, password },
  });
  return data?.access_token;
}

export type User = ItemOf<"/api/users">;

// @ts-expect-error GET /api/users/me does not page by cursor
paginate(client, "/api/users/me");
// @ts-expect-error role is an enum of the contract
paginate(client, "/api/users", { params: { query: { role: "owner" } } });
