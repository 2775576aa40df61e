import { expect, test } from "bun:test";
import { deviceOf } from "./SessionsSection";

test("a session's device, told apart by browser and system", () => {
  expect(deviceOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")).toBe(
    "Chrome on Linux",
  );
  expect(
    deviceOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15"),
  ).toBe("Safari on macOS");
  expect(deviceOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0")).toBe("Firefox on Windows");
  expect(deviceOf("curl/8.5.0")).toBe("curl");
  expect(deviceOf(null)).toBe("An unknown device");
});
