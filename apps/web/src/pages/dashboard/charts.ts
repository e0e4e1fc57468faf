import type { TagChangeDay, TagChangeKind, TagStoreCount } from '@esl/contract';
import type { EChartsCoreOption } from 'echarts/core';

/** Charts narrower than this (px) take their phone layout (ECharts media query). */
export const NARROW = 480;

/** One labelled number of a chart. */
export interface Point {
  name: string;
  value: number;
}

/** Vertical bars, one per point, with a named value axis. */
export function barOption(points: Point[], valueName: string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    // Every label while they fit; on a narrow screen those that would overlap are left out.
    xAxis: {
      type: 'category',
      data: points.map((p) => p.name),
      axisLabel: { interval: 0, rotate: 30, hideOverlap: true, width: 120, overflow: 'truncate' },
    },
    yAxis: { type: 'value', name: valueName, minInterval: 1 },
    series: [{ type: 'bar', name: valueName, data: points.map((p) => p.value), barMaxWidth: 40 }],
  };
}

/**
 * Horizontal bars for long category names (store names), the first point on top. `wrap` breaks a
 * long name onto lines instead of cutting it ("Communication interruption" in English, issue 27).
 */
export function horizontalBarOption(points: Point[], valueName: string, wrap = false): EChartsCoreOption {
  const top = [...points].reverse();
  const overflow = wrap ? 'break' : 'truncate';
  return {
    baseOption: {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 8, right: 32, top: 8, bottom: 28, containLabel: true },
      xAxis: {
        type: 'value',
        name: valueName,
        nameLocation: 'middle',
        nameGap: 24,
        minInterval: 1,
        axisLabel: { hideOverlap: true },
      },
      yAxis: { type: 'category', data: top.map((p) => p.name), axisLabel: { width: 160, overflow, interval: 0 } },
      series: [
        {
          type: 'bar',
          name: valueName,
          data: top.map((p) => p.value),
          barMaxWidth: 24,
          label: { show: true, position: 'right' },
        },
      ],
    },
    // A phone: fewer value ticks, shorter store names.
    media: [
      {
        query: { maxWidth: NARROW },
        option: { xAxis: { splitNumber: 2 }, yAxis: { axisLabel: { width: 100, overflow } } },
      },
    ],
  };
}

export function pieOption(points: Point[], seriesName: string): EChartsCoreOption {
  return {
    baseOption: {
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      // A plain legend (no scrolling, see Chart.tsx) beside the ring, one model a line.
      legend: { orient: 'vertical', right: 8, top: 'middle' },
      series: [
        {
          type: 'pie',
          name: seriesName,
          radius: ['40%', '68%'],
          center: ['40%', '50%'],
          data: points,
          labelLayout: { hideOverlap: true },
        },
      ],
    },
    // A phone: the legend under the ring names the slices, the ring has no labels to collide.
    media: [
      {
        query: { maxWidth: NARROW },
        option: {
          legend: { orient: 'horizontal', left: 'center', right: 'auto', top: 'auto', bottom: 0 },
          series: [
            { radius: ['30%', '52%'], center: ['50%', '38%'], label: { show: false }, labelLine: { show: false } },
          ],
        },
      },
    ],
  };
}

/**
 * Per day: the screen updates the tags confirmed and those that failed (bars, on the left axis),
 * and one line per kind of change (on the right axis), with a legend naming them all.
 */
export function changesOption(
  days: TagChangeDay[],
  kinds: readonly { kind: TagChangeKind; name: string }[],
  valueName: string,
  updates: { delivered: string; failed: string; valueName: string },
): EChartsCoreOption {
  const lines = kinds.map(({ kind, name }) => ({
    type: 'line',
    name,
    yAxisIndex: 1,
    showSymbol: days.length <= 31,
    data: days.map((d) => d[kind]),
  }));
  return {
    baseOption: {
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 8, right: 16, top: 32, bottom: 32, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)), axisLabel: { hideOverlap: true } },
      yAxis: [
        { type: 'value', name: updates.valueName, minInterval: 1, axisLabel: { hideOverlap: true } },
        {
          type: 'value',
          name: valueName,
          minInterval: 1,
          splitLine: { show: false },
          axisLabel: { hideOverlap: true },
        },
      ],
      series: [
        {
          type: 'bar',
          name: updates.delivered,
          stack: 'updates',
          barMaxWidth: 24,
          itemStyle: { color: '#52c41a' },
          data: days.map((d) => d.delivered),
        },
        {
          type: 'bar',
          name: updates.failed,
          stack: 'updates',
          barMaxWidth: 24,
          itemStyle: { color: '#ff4d4f' },
          data: days.map((d) => d.failed),
        },
        ...lines,
      ],
    },
    // A phone: the legend takes two lines under the chart, so the plot leaves room for them.
    media: [{ query: { maxWidth: NARROW }, option: { grid: { bottom: 64 }, legend: { itemGap: 8 } } }],
  };
}

/** The `top` stores with most tags, the rest summed into one point named by `others(n)`. */
export function topStores(rows: readonly TagStoreCount[], top: number, others: (n: number) => string): Point[] {
  const sorted = [...rows].sort((a, b) => b.count - a.count || a.storeId - b.storeId);
  const points = sorted.slice(0, top).map((r) => ({ name: r.name, value: r.count }));
  const rest = sorted.slice(top);
  if (rest.length > 0) points.push({ name: others(rest.length), value: rest.reduce((n, r) => n + r.count, 0) });
  return points;
}

export const sum = (values: readonly number[]) => values.reduce((n, v) => n + v, 0);
