/**
 * Preloaded into the fuzzed server (`bun --preload`, as budgets.test.ts does with its probe):
 * passwords hash at argon2id's least cost, the test-only path in-process tests already take
 * (tests/harness.ts). At the real cost the fuzz's ~240 sign-ins and sign-ups were half of the
 * server's request time. What the fuzz checks does not rest on that cost: answers under 500, a
 * process that lives, and memory bounds for what requests leave behind (argon2's 19 MiB a hash
 * is given back when the hash ends). src/identity/password.test.ts checks that a server process
 * hashes at the real cost.
 */
import { hashPasswordsCheaplyForTests } from "../../src/identity/password";

hashPasswordsCheaplyForTests();
