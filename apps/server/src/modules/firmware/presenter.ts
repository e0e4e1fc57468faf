import type { FirmwareChoice, UpgradeTask } from '@esl/contract';
import type * as repo from './repository';

const list = (json: string): string[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export function presentChoice(row: {
  id: number;
  kind: 'ap' | 'module' | 'tag';
  version: string;
  name: string;
  size: number;
  hash: string;
  models: string;
  hw: string;
  created_at: number;
}): FirmwareChoice {
  return {
    id: row.id,
    kind: row.kind,
    version: row.version,
    name: row.name,
    size: Number(row.size),
    hash: row.hash,
    models: list(row.models),
    hw: list(row.hw),
    createdAt: Number(row.created_at),
  };
}

export function presentTask(t: repo.TaskRow): UpgradeTask {
  return {
    id: t.id,
    kind: t.kind,
    device: t.kind === 'tagfw' ? (t.hardware_id ?? '') : (t.sn ?? ''),
    stationSn: t.sn ?? '',
    fromVersion: t.from_version,
    version: t.version,
    state: t.state,
    code: t.code,
    attempt: Number(t.attempt),
    done: Number(t.done_bytes),
    total: Number(t.size),
    createdAt: Number(t.created_at),
    finishedAt: t.finished_at === null ? null : Number(t.finished_at),
  };
}
