import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useReducedMotion } from '../../platform/motion';
import { FONT_FAMILY } from '../../platform/theme';

// Only what the dashboard draws: bars, lines, pies with a grid, a plain legend and tooltips
// (the scrolling legend is left out: it costs bundle size the dashboard route does not have).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendPlainComponent, TooltipComponent, CanvasRenderer]);

interface Props {
  /** Built by the pure functions of charts.ts. */
  option: echarts.EChartsCoreOption;
  height?: number;
  testId?: string;
}

/** One echarts chart, loaded with the dashboard's statistics only once one has numbers to draw. */
export default function Chart({ option, height = 280, testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el);
    // Canvas text does not inherit the page's font: without it Chinese draws as empty boxes on a
    // machine whose only CJK font is the shipped one.
    const textStyle = { fontFamily: FONT_FAMILY };
    // Bars and pies grow into place unless the user asked for reduced motion (platform/motion.ts).
    const animation = !reducedMotion;
    const base = option.baseOption as echarts.EChartsCoreOption | undefined;
    chart.setOption(
      base ? { ...option, baseOption: { textStyle, animation, ...base } } : { textStyle, animation, ...option },
    );
    // How many of the drawn labels overlap another, for the browser tests (issue: at 400 px the
    // chart labels ran over each other).
    chart.on('finished', () => {
      el.dataset.labelOverlaps = String(labelOverlaps(chart));
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [option, reducedMotion]);

  return <div ref={ref} data-testid={testId} style={{ width: '100%', height }} />;
}

type Corner = [number, number];

/** Whether two convex quadrilaterals overlap by more than a pixel (separating axis test). */
function intersects(a: Corner[], b: Corner[]): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i] as Corner;
      const q = poly[(i + 1) % poly.length] as Corner;
      const length = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
      const axis: Corner = [(p[1] - q[1]) / length, (q[0] - p[0]) / length];
      const project = (c: Corner) => c[0] * axis[0] + c[1] * axis[1];
      const pa = a.map(project);
      const pb = b.map(project);
      if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)) <= 1) return false;
    }
  }
  return true;
}

/** Pairs of visible text labels whose drawn (possibly rotated) boxes overlap, over the whole chart. */
function labelOverlaps(chart: echarts.ECharts): number {
  type Box = { x: number; y: number; width: number; height: number };
  type Shown = {
    type?: string;
    invisible?: boolean;
    ignore?: boolean;
    style?: { text?: string };
    getBoundingRect?: () => Box;
    transform?: number[] | null;
  };
  const zr = chart.getZr() as unknown as { storage: { getDisplayList: (update?: boolean) => Shown[] } };
  const labels: Corner[][] = [];
  for (const el of zr.storage.getDisplayList(true)) {
    if ((el.type !== 'tspan' && el.type !== 'text') || el.invisible || el.ignore || !el.style?.text) continue;
    if (!el.getBoundingRect) continue;
    const r = el.getBoundingRect();
    const m = el.transform ?? [1, 0, 0, 1, 0, 0];
    const at = (x: number, y: number): Corner => [
      (m[0] ?? 1) * x + (m[2] ?? 0) * y + (m[4] ?? 0),
      (m[1] ?? 0) * x + (m[3] ?? 1) * y + (m[5] ?? 0),
    ];
    labels.push([at(r.x, r.y), at(r.x + r.width, r.y), at(r.x + r.width, r.y + r.height), at(r.x, r.y + r.height)]);
  }
  let overlaps = 0;
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++)
      if (intersects(labels[i] as Corner[], labels[j] as Corner[])) overlaps++;
  }
  return overlaps;
}
