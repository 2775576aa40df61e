import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { classifyIp, formatIp, ipAllowed, hostAllowed, parseAllowList, parseCidr, parseIp } from "./ip-ranges";
import { checkOutboundHost, guardedFetch, OutboundError, type OutboundOptions } from "./outbound";

const classify = (ip: string) => {
  const bytes = parseIp(ip);
  if (!bytes) throw new Error(`test address ${ip} does not parse`);
  return classifyIp(bytes);
};

describe("address classification", () => {
  test.each([
    ["127.0.0.1", "loopback address"],
    ["127.255.0.9", "loopback address"],
    ["10.0.0.1", "private address"],
    ["172.16.0.1", "private address"],
    ["172.31.255.255", "private address"],
    ["192.168.1.1", "private address"],
    ["100.64.0.1", "shared (CGNAT) address"],
    ["100.127.255.255", "shared (CGNAT) address"],
    ["169.254.169.254", "metadata address"],
    ["169.254.1.1", "link-local address"],
    ["0.0.0.0", "unspecified address"],
    ["224.0.0.1", "multicast address"],
    ["255.255.255.255", "reserved address"],
    ["::1", "loopback address"],
    ["::", "unspecified address"],
    ["fe80::1", "link-local address"],
    ["fe80::1%eth0", "link-local address"],
    ["fc00::1", "unique-local address"],
    ["fd12:3456::1", "unique-local address"],
    ["fd00:ec2::254", "metadata address"],
    ["ff02::1", "multicast address"],
    ["::ffff:127.0.0.1", "loopback address"],
    ["::ffff:7f00:1", "loopback address"],
    ["::ffff:10.1.2.3", "private address"],
    ["::ffff:169.254.169.254", "metadata address"],
    ["64:ff9b::a00:1", "private address"],
    ["2002:7f00:1::", "loopback address"],
    ["[::1]", "loopback address"],
  ])("%s is refused as a %s", (ip, reason) => {
    expect(classify(ip)).toBe(reason);
  });

  test.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2a00:1450::1"])(
    "%s is an ordinary public address",
    (ip) => {
      expect(classify(ip)).toBeNull();
    },
  );

  test.each(["example.com", "256.1.1.1", "1.2.3", "01.2.3.4", "1:2:3:4:5:6:7:8:9", "1::2::3", "gggg::1", ""])(
    "%p is not an address",
    (text) => {
      expect(parseIp(text)).toBeNull();
    },
  );

  test.each([
    ["::1", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["fd00:ec2:0:0:0:0:0:254", "fd00:ec2::254"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
    ["10.0.0.1", "10.0.0.1"],
  ])("%s is written %s", (input, written) => {
    expect(formatIp(parseIp(input)!)).toBe(written);
  });
});

describe("allow list", () => {
  const list = parseAllowList(["10.0.0.0/8", "127.0.0.1", "fd00::/8", "Hooks.Internal.", "bad/99/x", "300.0.0.0/8", " "]);

  test.each([
    ["10.9.8.7", true],
    ["11.0.0.1", false],
    ["127.0.0.1", true],
    ["127.0.0.2", false],
    ["::ffff:127.0.0.1", true],
    ["::ffff:10.2.3.4", true],
    ["fd12::1", true],
    ["fc00::1", false],
    ["::1", false],
  ])("%s allowed: %p", (ip, allowed) => {
    expect(ipAllowed(list, parseIp(ip)!)).toBe(allowed);
  });

  test("host names match whole, in any case, with or without the final dot; bad entries match nothing", () => {
    expect(hostAllowed(list, "hooks.internal")).toBe(true);
    expect(hostAllowed(list, "HOOKS.INTERNAL.")).toBe(true);
    expect(hostAllowed(list, "evil.hooks.internal")).toBe(false);
    expect(list.nets.length).toBe(3);
    expect(list.hosts.size).toBe(1);
  });

  test.each([["10.0.0.0/33"], ["::/129"], ["1.2.3.4/x"], ["/8"]])("%s is not a CIDR", (cidr) => {
    expect(parseCidr(cidr)).toBeNull();
  });
});

describe("guardedFetch", () => {
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  const seen: Array<{ method: string; path: string; host: string | null; body: string }> = [];
  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const url = new URL(req.url);
        seen.push({ method: req.method, path: url.pathname, host: req.headers.get("host"), body: await req.text() });
        if (url.pathname === "/to-private") return Response.redirect("http://10.0.0.1/inside", 302);
        if (url.pathname === "/to-v6-loopback") return new Response(null, { status: 307, headers: { location: "http://[::1]/" } });
        if (url.pathname === "/hop") return new Response(null, { status: 307, headers: { location: "/done" } });
        if (url.pathname === "/see-other") return new Response(null, { status: 303, headers: { location: "/done" } });
        if (url.pathname === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
        if (url.pathname === "/big") return new Response("x".repeat(100_000));
        if (url.pathname === "/slow") return new Promise((resolve) => setTimeout(() => resolve(new Response("late")), 2_000));
        return new Response(`hello from ${url.pathname}`, { status: url.pathname === "/teapot" ? 418 : 200 });
      },
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.stop(true));

  const opts = (allow: string[] = [], extra: Partial<OutboundOptions> = {}): OutboundOptions => ({
    allow,
    timeoutMs: 5_000,
    maxBytes: 1024,
    ...extra,
  });

  async function refusal(url: string, o: OutboundOptions): Promise<OutboundError> {
    try {
      await guardedFetch(url, {}, o);
    } catch (err) {
      if (err instanceof OutboundError) return err;
      throw err;
    }
    throw new Error(`${url} was not refused`);
  }

  test.each([
    ["http://127.0.0.1/", "refused", "refused: loopback address 127.0.0.1"],
    ["http://localhost/", "refused", "refused: loopback address"],
    ["http://10.0.0.1/", "refused", "refused: private address 10.0.0.1"],
    ["http://[::1]/", "refused", "refused: loopback address ::1"],
    ["http://[::ffff:127.0.0.1]:8080/", "refused", "refused: loopback address"],
    ["http://169.254.169.254/latest/meta-data/", "refused", "refused: metadata address"],
    ["http://0x7f.1/", "refused", "refused: loopback address 127.0.0.1"],
    ["file:///etc/passwd", "bad_url", "file: is not allowed"],
    ["ftp://example.com/", "bad_url", "ftp: is not allowed"],
    ["javascript:alert(1)", "bad_url", "javascript: is not allowed"],
    ["http://user:pw@example.com/", "bad_url", "passwords"],
    ["not a url", "bad_url", "not an absolute URL"],
  ])("%s is refused (%s)", async (url, kind, message) => {
    const err = await refusal(url, opts());
    expect(err.kind).toBe(kind as OutboundError["kind"]);
    expect(err.message).toContain(message);
  });

  test("a host with one private address among public ones is refused", async () => {
    const err = await refusal("http://mixed.example/", opts([], { resolve: async () => ["93.184.216.34", "192.168.0.10"] }));
    expect(err.message).toContain("refused: private address 192.168.0.10 (mixed.example)");
  });

  test("an allowed address is reached, with the original Host header and the body", async () => {
    const res = await guardedFetch(
      `${base}/hello`,
      { method: "POST", body: "ping", headers: { "content-type": "text/plain" } },
      opts(["127.0.0.1"]),
    );
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(res.body)).toBe("hello from /hello");
    expect(res.address).toBe("127.0.0.1");
    expect(seen.at(-1)).toEqual({ method: "POST", path: "/hello", host: `127.0.0.1:${server.port}`, body: "ping" });
  });

  test("an allowed host name is reached at its checked address, the name in the Host header", async () => {
    const res = await guardedFetch(
      `http://hooks.internal:${server.port}/named`,
      {},
      opts(["hooks.internal"], { resolve: async () => ["127.0.0.1"] }),
    );
    expect(res.status).toBe(200);
    expect(seen.at(-1)?.host).toBe(`hooks.internal:${server.port}`);
  });

  test("a CIDR allows the addresses inside it", async () => {
    expect((await guardedFetch(`${base}/teapot`, {}, opts(["127.0.0.0/8"]))).status).toBe(418);
  });

  test("a redirect from an allowed host to a private one is refused", async () => {
    const err = await refusal(`${base}/to-private`, opts(["127.0.0.1"]));
    expect(err.kind).toBe("refused");
    expect(err.message).toContain("refused: private address 10.0.0.1");
    const v6 = await refusal(`${base}/to-v6-loopback`, opts(["127.0.0.1"]));
    expect(v6.message).toContain("refused: loopback address ::1");
  });

  test("redirects are followed: 307 keeps method and body, 303 turns into GET", async () => {
    const kept = await guardedFetch(`${base}/hop`, { method: "POST", body: "again" }, opts(["127.0.0.1"]));
    expect(new TextDecoder().decode(kept.body)).toBe("hello from /done");
    expect(kept.url).toBe(`${base}/done`);
    expect(seen.at(-1)).toMatchObject({ method: "POST", path: "/done", body: "again" });
    await guardedFetch(`${base}/see-other`, { method: "POST", body: "once" }, opts(["127.0.0.1"]));
    expect(seen.at(-1)).toMatchObject({ method: "GET", path: "/done", body: "" });
  });

  test("more than maxRedirects hops fail", async () => {
    const err = await refusal(`${base}/loop`, opts(["127.0.0.1"], { maxRedirects: 3 }));
    expect(err.kind).toBe("too_many_redirects");
  });

  test("followRedirects: false answers the redirect itself, Location included, and goes no further", async () => {
    const before = seen.length;
    const res = await guardedFetch(`${base}/hop`, { method: "POST", body: "once" }, opts(["127.0.0.1"], { followRedirects: false }));
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/done");
    expect(res.url).toBe(`${base}/hop`);
    expect(seen.slice(before).map((s) => s.path)).toEqual(["/hop"]);
  });

  test("at most maxBytes of the answer are read", async () => {
    const res = await guardedFetch(`${base}/big`, {}, opts(["127.0.0.1"], { maxBytes: 1024 }));
    expect(res.body.byteLength).toBe(1024);
    expect(res.truncated).toBe(true);
    const small = await guardedFetch(`${base}/x`, {}, opts(["127.0.0.1"], { maxBytes: 1024 }));
    expect(small.truncated).toBe(false);
  });

  test("a slow answer times out", async () => {
    const err = await refusal(`${base}/slow`, opts(["127.0.0.1"], { timeoutMs: 100 }));
    expect(err.kind).toBe("timeout");
  });

  test("a refused connection is a network failure", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const err = await refusal(`http://127.0.0.1:${port}/`, opts(["127.0.0.1"]));
    expect(err.kind).toBe("network");
  });
});

describe("checkOutboundHost (a client that connects by itself: backup targets' S3)", () => {
  const resolve = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];
  test("refuses a private or loopback address, or a host resolving to one, unless allowed; answers the address checked", async () => {
    const opts = {
      allow: [] as string[],
      timeoutMs: 2000,
      resolve: resolve({ "nas.lan": ["192.168.1.20"], "s3.example.com": ["93.184.216.34"] }),
    };
    await expect(checkOutboundHost("http://127.0.0.1:9000", opts)).rejects.toMatchObject({ kind: "refused" });
    await expect(checkOutboundHost("http://nas.lan:3900", opts)).rejects.toThrow(/private address 192\.168\.1\.20 \(nas\.lan\)/);
    expect(await checkOutboundHost("https://s3.example.com", opts)).toBe("93.184.216.34");
    expect(await checkOutboundHost("http://nas.lan:3900", { ...opts, allow: ["nas.lan"] })).toBe("192.168.1.20");
    expect(await checkOutboundHost("http://127.0.0.1:9000", { ...opts, allow: ["127.0.0.1"] })).toBe("127.0.0.1");
  });
  test("the URL's shape first: http(s) only, no credentials in it", async () => {
    const opts = { allow: [], timeoutMs: 2000 };
    await expect(checkOutboundHost("ftp://s3.example.com", opts)).rejects.toMatchObject({ kind: "bad_url" });
    await expect(checkOutboundHost("https://me:pw@s3.example.com", opts)).rejects.toMatchObject({ kind: "bad_url" });
  });
});
