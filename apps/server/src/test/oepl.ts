import type { AddStationData, Template } from '@esl/contract';
import { COLOUR_SETS, type ColourType, decodeTagImage } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import { EMU_TAG_TYPES, type EmuScreen, type OeplAp } from '@esl/simulator';
import type { FastifyInstance } from 'fastify';
import { loadImage } from '../infra/render';
import { buildProducts, buildShop, buildTags } from './business';
import type { TestApp } from './harness';

/*
 * Test harness of the OpenEPaperLink tests against the real server (delivery/simulated-oepl.test.ts,
 * delivery/simulated-oepl-faults.test.ts, delivery/oepl-kill9.test.ts): a store whose tags are
 * emulated OEPL tags, each with a product and a default price template of its model (inserted in
 * bulk: 300 tags cost two statements), and the pixel comparison of what an emulated tag shows
 * (after the AP's own palette mapping) with the label the server rendered for it. The server with
 * its bridges on a virtual clock is test/oepl-server.ts.
 */

export interface OeplType {
  hwType: number;
  model: string;
  w: number;
  h: number;
  colourType: ColourType;
}

/** Emulator tag types used here and the catalogue model the bridge maps each to (same size and colours). */
export const OEPL_TYPES: readonly OeplType[] = [
  { hwType: 0x31, model: '0F', w: 296, h: 128, colourType: 'bwr' }, // 2.9" black/white/red
  { hwType: 0x34, model: '1C', w: 400, h: 300, colourType: 'bwr' }, // 4.2" black/white/red on a portrait canvas, turned
];

/** The other colour sets of the emulator's 2.9" types (apps/simulator/src/oepl/types.ts) and their catalogue twins. */
export const OEPL_MORE_TYPES: readonly OeplType[] = [
  { hwType: 0x30, model: '10', w: 296, h: 128, colourType: 'bw' }, // 2.90B
  { hwType: 0x32, model: '11', w: 296, h: 128, colourType: 'bwy' }, // 2.90Y
  { hwType: 0x33, model: '12', w: 296, h: 128, colourType: 'bwry' }, // 2.90F, four colours
];

/** Inks a test label shows besides black and white: the price's accent and a band in the set's yellow. */
function labelOf(type: OeplType) {
  const band =
    type.colourType === 'bwy' || type.colourType === 'bwry'
      ? [
          {
            type: 'rect' as const,
            id: 'band',
            x: 0,
            y: type.h - 10,
            w: type.w,
            h: 10,
            colour: 'yellow' as const,
            fill: 'yellow' as const,
          },
        ]
      : [];
  return priceLabel({ model: type.model, w: type.w, h: type.h, colourType: type.colourType, extra: band });
}

export interface OeplShopTag {
  id: number;
  mac: string;
  hwType: number;
  model: string;
  productId: number;
}

/** `0000EE…NN`, the emulator's MAC form (emuTags). */
export const macOf = (i: number) => `0000EE${i.toString(16).toUpperCase().padStart(10, '0')}`;

/**
 * A store with a price template per model and `perType` tags of each type, each bound to a product.
 * MACs are `macOf(firstMac)` on (globally unique: give each shop of one database its own range).
 */
export async function seedOeplShop(
  app: FastifyInstance,
  call: TestApp['call'],
  perType: number,
  { types = OEPL_TYPES, firstMac = 1 }: { types?: readonly OeplType[]; firstMac?: number } = {},
) {
  const world = await buildShop(app);
  const token = world.tokens.admin;
  const at = { tenantId: world.tenant.id, storeId: world.store.id };
  const must = async <T>(path: string, body: object) => {
    const res = await call<T>(path, body, { token });
    if (res.code !== 0) throw new Error(`${path}: ${res.code} ${res.msg}`);
    return res.data;
  };
  const tags: OeplShopTag[] = [];
  for (const type of types) {
    const template = await must<Template>('/mgr/templ/addtemple', { name: `price ${type.model}`, model: type.model });
    await must('/mgr/templ/alerttempData', { id: template.id, doc: labelOf(type) });
    await must('/mgr/templ/setrule', { kind: 'default', model: type.model, templateId: template.id });
    // One statement for the products and one for the tags: 300 tags cost two inserts.
    const first = tags.length;
    const products = await buildProducts(
      app,
      at,
      Array.from({ length: perType }, (_, i) => ({ name: `Pear ${first + i}`, priceCents: 200 + first + i })),
    );
    const rows = await buildTags(
      app,
      at,
      products.map((product, i) => ({
        hardwareId: macOf(firstMac + first + i),
        model: type.model,
        colour: type.colourType,
        productId: product.id,
      })),
    );
    for (const [i, row] of rows.entries()) {
      const product = products[i];
      if (!product) throw new Error(`no product for ${row.hardware_id}`);
      tags.push({ id: row.id, mac: row.hardware_id, hwType: type.hwType, model: type.model, productId: product.id });
    }
  }
  return { token, ...at, tags, must };
}

/**
 * Pixels where the emulated tag's screen differs from the server's stored render of `hash`,
 * compared by ink name (our ink order against the type's colour-table order); a type with
 * `rotatebuffer` 3 shows our image turned a quarter anticlockwise.
 */
export async function differingPixels(
  app: FastifyInstance,
  tenantId: number,
  hash: string,
  hwType: number,
  screen: EmuScreen,
) {
  const stored = await loadImage(app.services.db, tenantId, hash);
  if (!stored) throw new Error(`no stored image ${hash}`);
  const image = decodeTagImage(stored.bytes);
  const type = EMU_TAG_TYPES.get(hwType);
  if (!type) throw new Error(`type ${hwType}`);
  const ours = COLOUR_SETS[image.colourType];
  const theirs = Object.keys(type.colortable);
  const turned = screen.width !== image.width;
  if (turned && (screen.width !== image.height || screen.height !== image.width)) return Number.POSITIVE_INFINITY;
  let diff = 0;
  for (let y = 0; y < screen.height; y++) {
    for (let x = 0; x < screen.width; x++) {
      const [sx, sy] = !turned
        ? [x, y]
        : type.rotatebuffer === 3
          ? [image.width - 1 - y, x]
          : [y, image.height - 1 - x];
      if (ours[image.data[sy * image.width + sx]] !== theirs[screen.indices[y * screen.width + x]]) diff++;
    }
  }
  return diff;
}

/** The emulated tags' hardware for the AP. */
export const emuTagsOf = (tags: readonly OeplShopTag[]) => tags.map((t) => ({ mac: t.mac, hwType: t.hwType }));

/** What each tag's screen shows now (null: nothing yet). */
export const screenOf = (ap: OeplAp, mac: string): EmuScreen | null => ap.ap.tags.get(mac)?.screen ?? null;

export type { AddStationData };
