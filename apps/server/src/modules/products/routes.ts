import { defineHandlers } from '../../api/handlers';
import { exportProducts } from './export';
import { importProducts } from './import/service';
import { inspectImport } from './import/wizard';
import { presentProduct } from './presenter';
import * as products from './service';

export const productHandlers = defineHandlers({
  productList: async (ctx, body) => {
    const { rows, count } = await products.list(ctx, body);
    return { rows: rows.map(presentProduct), count };
  },
  findProduct: async (ctx, { barcode }) => presentProduct(await products.find(ctx, barcode)),
  addProduct: async (ctx, body) => presentProduct(await products.add(ctx, body)),
  alterProduct: async (ctx, { id, ...patch }) => presentProduct(await products.alter(ctx, id, patch)),
  delProduct: async (ctx, { ids }) => ({ deleted: await products.remove(ctx, ids) }),
  productFieldMap: async (ctx, { fields }) => ({ fields: await products.fieldMap(ctx, fields) }),
  importProducts: (ctx) => importProducts(ctx),
  inspectImport: (ctx) => inspectImport(ctx),
  productExport: (ctx, filter) => exportProducts(ctx, filter),
});
