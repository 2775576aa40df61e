import { describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, readlinkSync, readSync } from "node:fs";
import { elfSection, executableMappings, releaseExecutablePages } from "./executable-pages";

const linux = process.platform === "linux";

const SMAPS = `00200000-01a39000 r--p 00000000 fe:00 42 /opt/cairn
Rss:                7972 kB
KernelPageSize:        4 kB
Anonymous:             0 kB
01a40000-0684a000 r-xp 01838000 fe:00 42 /opt/cairn
Rss:               36840 kB
KernelPageSize:        4 kB
Anonymous:             0 kB
0685f000-06867000 r--p 06656000 fe:00 42 /opt/cairn
Rss:                  32 kB
KernelPageSize:        4 kB
Anonymous:            12 kB
06867000-077ff000 rw-p 0665e000 fe:00 42 /opt/cairn
Rss:                8132 kB
KernelPageSize:        4 kB
Anonymous:           124 kB
7fbd97e94000-7fbd97fea000 r-xp 00026000 fe:00 7 /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                1176 kB
KernelPageSize:        4 kB
Anonymous:             0 kB
51e01800000-51e41800000 rw-p 00000000 00:00 0
Rss:               19144 kB
KernelPageSize:        4 kB
Anonymous:         19144 kB
`;

describe("the executable's pages", () => {
  test("only the executable's own mappings are read, with what of them was written", () => {
    const { mappings, pageSize } = executableMappings(SMAPS, "/opt/cairn");
    expect(pageSize).toBe(4096);
    expect(mappings.map((m) => [m.start.toString(16), m.writable, m.offset, m.anonymous])).toEqual([
      ["200000", false, 0, 0],
      ["1a40000", false, 0x1838000, 0],
      // Made read-only after it was written (JavaScriptCore's configuration): never dropped.
      ["685f000", false, 0x6656000, 12],
      ["6867000", true, 0x665e000, 124],
    ]);
  });

  test.skipIf(!linux)("a section of the running executable is found by name", () => {
    const fd = openSync(readlinkSync("/proc/self/exe"), "r");
    try {
      const read = (offset: number, length: number) => {
        const bytes = Buffer.alloc(length);
        return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
      };
      const text = elfSection(read, ".text");
      expect(text).not.toBeNull();
      expect(text!.size).toBeGreaterThan(1024 * 1024);
      expect(elfSection(read, ".no-such-section")).toBeNull();
      expect(elfSection(() => new Uint8Array(64), ".text")).toBeNull();
    } finally {
      closeSync(fd);
    }
  });

  test.skipIf(!linux)("given back, the process's resident memory falls and its code still runs", async () => {
    const rssKb = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))![1]);
    const before = rssKb();
    const advised = await releaseExecutablePages();
    expect(advised).toBeGreaterThan(0);
    expect(rssKb()).toBeLessThan(before);
    // Code and constants come back from the page cache as they are needed.
    expect(Bun.gunzipSync(Bun.gzipSync(new TextEncoder().encode("cairn".repeat(1000)))).length).toBe(5000);
    expect(JSON.parse(JSON.stringify({ a: [1, 2, 3] }))).toEqual({ a: [1, 2, 3] });
  });
});
