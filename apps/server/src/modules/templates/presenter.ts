import { findTagModel, TagColourType, type Template } from '@esl/contract';
import { Rotation } from '@esl/labels';
import type { TemplateListRow } from './repository';

export const THUMB_PATH = '/uploads/templates';

export function thumbnailUrl(key: string | null): string {
  return key ? `${THUMB_PATH}/${key}.png` : '';
}

export function presentTemplate(row: TemplateListRow): Template {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    modelName: row.model ? (findTagModel(row.model)?.name ?? '') : '',
    width: row.width,
    length: row.height,
    colourType: TagColourType.catch('bwr').parse(row.colour_type),
    rotation: Rotation.catch(0).parse(row.rotation),
    revision: row.revision,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    thumbnail: thumbnailUrl(row.thumb_key),
  };
}
