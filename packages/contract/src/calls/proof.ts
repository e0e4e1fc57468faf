import { PROOF_EXPORT_PATH, PriceProof, ProofExportBody, ProofListBody, ProofSummary } from '../api/proof';
import { Empty, Nothing } from '../common';
import type { Messages } from '../errors';
import { call, list } from './define';
import { XLSX_TYPE } from './products';

/** Proof of price of the current store (docs/PROOF.md); with none set: STORE_NOT_SET. */
export const PROOF_CALLS = {
  proofList: call(
    '/mgr/proof/list',
    'tag.read',
    ProofListBody,
    PriceProof,
    "List the current store's bound tags with the price each one's screen was rendered from and the product's " +
      'price now (disagreeing first, then unknown, then agreeing)',
    list,
  ),
  proofSummary: call(
    '/mgr/proof/summary',
    'tag.read',
    Empty,
    ProofSummary,
    "How many of the current store's bound tags agree with their product's price, disagree, or are not known",
  ),
  proofExport: call(
    PROOF_EXPORT_PATH,
    'tag.read',
    ProofExportBody,
    Nothing,
    'Export the price-accuracy report of the current store as an XLSX file (refusals answer the envelope)',
    { file: { type: XLSX_TYPE, filename: 'price-accuracy.xlsx' } },
  ),
} as const;

export const PROOF_CALL_NAMES = {
  proofList: { 'zh-CN': '查询价格核对', en: 'List price accuracy' },
  proofSummary: { 'zh-CN': '价格核对汇总', en: 'Price accuracy summary' },
  proofExport: { 'zh-CN': '导出价格核对', en: 'Export price accuracy' },
} as const satisfies Record<keyof typeof PROOF_CALLS, Messages>;
