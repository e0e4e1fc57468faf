import { findTagModel, TagColourType } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { addTemplateBody, colourTypesFor } from './body';

describe('add-template body', () => {
  it('sends a model with a colour it is made in', () => {
    expect(
      addTemplateBody({ name: ' 价签 ', sizeMode: 'model', model: '0A', colourType: 'bwy', width: 1, length: 2 }),
    ).toEqual({ name: '价签', model: '0A', colourType: 'bwy', rotation: 0 });
  });

  it('leaves out a colour the model is not made in', () => {
    const body = addTemplateBody({ name: 'x', sizeMode: 'model', model: '0B', colourType: 'bwr' });
    expect(body.colourType).toBeUndefined();
  });

  it('sends width and length for a free size, and no model', () => {
    expect(
      addTemplateBody({ name: 'x', sizeMode: 'custom', model: '0A', width: 300, length: 100, colourType: 'bw' }),
    ).toEqual({ name: 'x', width: 300, length: 100, colourType: 'bw', rotation: 0 });
  });
});

describe('colour types on offer', () => {
  it('limits the colours to the model', () => {
    expect(colourTypesFor(findTagModel('0B'), TagColourType.options)).toEqual(['bw']);
    expect(colourTypesFor(findTagModel('0A'), TagColourType.options)).toEqual(['bwr', 'bwy']);
    expect(colourTypesFor(undefined, TagColourType.options)).toEqual(TagColourType.options);
  });
});
