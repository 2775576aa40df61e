/** The shape of a .cpuprofile (what `bun --cpu-prof` writes), read by the profile tools here. */
import { readFileSync } from "node:fs";

export interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

export const readProfile = (file: string): Profile => JSON.parse(readFileSync(file, "utf8")) as Profile;
