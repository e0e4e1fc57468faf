import {
  COLOUR_SETS,
  findTagModel,
  type LearnedTagModel,
  type TagColourType,
  type Tag as TagRow,
  type TagStatus,
} from '@esl/contract';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Fixed colours: a status reads the same under every theme colour. ('processing' would follow
 * the theme's info colour, which is the chosen theme colour: "normal" turned red under red.)
 */
export const STATUS_COLOURS: Record<TagStatus, string> = {
  online: 'success',
  normal: 'blue',
  offline: 'default',
  unknown: 'default',
  lost: 'error',
  interrupted: 'warning',
  disconnected: 'volcano',
};

export function StatusTag({ status }: { status: TagStatus }) {
  const { t } = useTranslation('tags');
  return (
    <Tag color={STATUS_COLOURS[status]} data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

const INK: Record<string, string> = {
  white: '#ffffff',
  black: '#1f1f1f',
  red: '#e53935',
  yellow: '#fdd835',
  green: '#43a047',
  blue: '#1e88e5',
  orange: '#fb8c00',
};

/** The inks of a colour type as small dots, then its name. */
export function ColourType({ colour }: { colour: TagColourType }) {
  const { t } = useTranslation('tags');
  return (
    <Space size={6}>
      <span style={{ display: 'inline-flex', gap: 2 }} aria-hidden>
        {COLOUR_SETS[colour].map((ink) => (
          <span
            key={ink}
            style={{
              width: 10,
              height: 10,
              borderRadius: '50%',
              background: INK[ink] ?? ink,
              border: '1px solid #bfbfbf',
            }}
          />
        ))}
      </span>
      <span>{t(`colour.${colour}`)}</span>
    </Space>
  );
}

/**
 * Whether a tag's model has an NFC chip (docs/CATALOGUE.md, docs/SHELF.md): the catalogue's flag,
 * or what the station said of a learned model; false for a model neither knows.
 */
export function modelHasNfc(code: string, learned?: LearnedTagModel | null): boolean {
  const model = findTagModel(code);
  if (model) return model.nfc;
  return learned?.key === code ? learned.nfc : false;
}

/**
 * '2.13L' with its size: '250×122 · 2.13"', and an NFC mark when the model has a chip the
 * template's NFC content is written to. A learned model (docs/OEPL.md): its name, size and where
 * it came from ('learned from shop AP, tag type 35 v2').
 */
export function ModelName({ code, name, learned }: { code: string; name: string; learned?: LearnedTagModel | null }) {
  const { t } = useTranslation('tags');
  const model = findTagModel(code);
  const small = { fontSize: 12 } as const;
  return (
    <Space orientation="vertical" size={0}>
      <span>
        {name}
        {modelHasNfc(code, learned) && (
          <Tooltip title={t('nfcHint')}>
            <Tag
              variant="filled"
              color="blue"
              style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px' }}
              data-testid="model-nfc"
            >
              NFC
            </Tag>
          </Tooltip>
        )}
      </span>
      {model && (
        <Typography.Text type="secondary" style={small}>
          {model.w}×{model.h} · {model.inches.toFixed(2)}″
        </Typography.Text>
      )}
      {learned && (
        <>
          <Typography.Text type="secondary" style={small}>
            {learned.w}×{learned.h} ·{' '}
            {learned.colourType ? t(`colour.${learned.colourType}`) : t('learned.noColourType')}
          </Typography.Text>
          <Typography.Text type="secondary" style={small} data-testid="learned-source">
            {t('learned.from', { source: learned.source })}
          </Typography.Text>
        </>
      )}
    </Space>
  );
}

/** The model the station reported: a learned model's name, or 'unknown model (key)'. */
export function HardwareModel({
  tag,
}: {
  tag: Pick<TagRow, 'hardwareModel' | 'unknownModel' | 'learnedModel' | 'model'>;
}) {
  const { t } = useTranslation('tags');
  if (tag.unknownModel) {
    return (
      <Tooltip title={t('learned.unknownHint')}>
        <Typography.Text type="warning">{t('learned.unknown', { key: tag.hardwareModel })}</Typography.Text>
      </Tooltip>
    );
  }
  if (tag.learnedModel && tag.hardwareModel === tag.learnedModel.key) return <span>{tag.learnedModel.name}</span>;
  return tag.hardwareModel ? <span>{tag.hardwareModel}</span> : <Typography.Text type="secondary">—</Typography.Text>;
}

const none = <Typography.Text type="secondary">—</Typography.Text>;

/** Signal in dBm: good above −70, weak to −85, poor below. */
export function signalTone(dbm: number): 'success' | 'warning' | 'danger' {
  if (dbm >= -70) return 'success';
  if (dbm >= -85) return 'warning';
  return 'danger';
}

export function Signal({ dbm }: { dbm: number | null }) {
  if (dbm === null) return none;
  return <Typography.Text type={signalTone(dbm)}>{dbm} dBm</Typography.Text>;
}

/** Battery in percent: low below 20. */
export function Battery({ percent }: { percent: number | null }) {
  const { t } = useTranslation('tags');
  if (percent === null) return none;
  const low = percent < 20;
  const text = <Typography.Text type={low ? 'danger' : undefined}>{percent}%</Typography.Text>;
  return low ? <Tooltip title={t('lowBattery')}>{text}</Tooltip> : text;
}

export function Temperature({ celsius }: { celsius: number | null }) {
  if (celsius === null) return none;
  return <span>{celsius} °C</span>;
}
