import WebSocket from 'ws';
import type { OeplApConfig, OeplSysInfo, OeplTag, OeplTagType } from './types';

/** An HTTP answer of the AP: its status and its text ("Ok, saved", "Come back later", …). */
export interface ApReply {
  status: number;
  text: string;
}

/**
 * The AP's HTTP interface (no authentication, plain text replies) and its WebSocket. Every call
 * has a timeout: an AP that hangs (a known failure) must not hang the bridge.
 */
export class OeplClient {
  readonly base: string;

  constructor(
    base: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.base = base.replace(/\/+$/, '');
  }

  private async call(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
  }

  async json<T>(path: string): Promise<T> {
    const res = await this.call(path);
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async get(path: string): Promise<ApReply> {
    const res = await this.call(path);
    return { status: res.status, text: await res.text() };
  }

  async post(path: string, fields: Record<string, string | number>): Promise<ApReply> {
    const body = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await this.call(path, { method: 'POST', body });
    return { status: res.status, text: await res.text() };
  }

  sysinfo(): Promise<OeplSysInfo> {
    return this.json('/sysinfo');
  }

  apConfig(): Promise<OeplApConfig> {
    return this.json('/get_ap_config');
  }

  /** Changes AP settings (`/save_apcfg` takes the whole form; unnamed settings keep their value). */
  saveApConfig(fields: Record<string, string | number>): Promise<ApReply> {
    return this.post('/save_apcfg', fields);
  }

  /** The whole tag database in one answer (never the offset paging, which stops at 255 tags). */
  backupDb(): Promise<OeplTag[]> {
    return this.json('/backup_db');
  }

  async tag(mac: string): Promise<OeplTag | null> {
    const page = await this.json<{ tags: OeplTag[] }>(`/get_db?mac=${mac}`);
    return page.tags[0] ?? null;
  }

  tagType(hwType: number): Promise<OeplTagType> {
    return this.json(`/tagtypes/${hwType.toString(16).toUpperCase().padStart(2, '0')}.json`);
  }

  /** Uploads a JPEG; 200 means queued, not shown. */
  async upload(mac: string, jpeg: Uint8Array, fields: Record<string, string | number>): Promise<ApReply> {
    const form = new FormData();
    form.set('mac', mac);
    for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
    form.set('file', new Blob([jpeg], { type: 'image/jpeg' }), `${mac}.jpg`);
    const res = await this.call('/imgupload', { method: 'POST', body: form });
    return { status: res.status, text: await res.text() };
  }

  /**
   * A tag's content settings (`/save_cfg`): `contentmode` and its `modecfgjson`; the AP draws the
   * content when the tag is next due. 200 even for an unknown MAC ("Error while saving: mac not found").
   */
  saveTagConfig(mac: string, fields: { contentmode: number; modecfgjson: string }): Promise<ApReply> {
    return this.post('/save_cfg', { mac, ...fields });
  }

  tagCmd(mac: string, cmd: string): Promise<ApReply> {
    return this.post('/tag_cmd', { mac, cmd });
  }

  ledFlash(mac: string, pattern: string): Promise<ApReply> {
    return this.get(`/led_flash?mac=${mac}&pattern=${pattern}`);
  }

  setTime(epochS: number): Promise<ApReply> {
    return this.post('/set_time', { epoch: Math.floor(epochS) });
  }

  reboot(): Promise<ApReply> {
    return this.post('/reboot', {});
  }

  /** Opens `/ws`; every message is JSON with one top-level key. */
  socket(): WebSocket {
    return new WebSocket(`${this.base.replace(/^http/, 'ws')}/ws`);
  }
}
