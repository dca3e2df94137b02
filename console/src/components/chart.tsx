import { useEffect, useRef } from 'preact/hooks'
import UPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

/** One series of a chart: its name, colour and a value per x. */
export interface ChartSeries {
  label: string
  colour: string
  values: number[]
}

/**
 * A chart drawn by uPlot on a canvas, sized to its container: `line` (x: days as UTC dates) or
 * `stacked` bars (x: categories, the series stacked in order). Pictures are not read by screen
 * readers or tests: the caller puts the numbers beside it in a table, and `summary` is the
 * figure's accessible name.
 */
export function Chart (props: { kind: 'line' | 'stacked', x: string[], series: ChartSeries[], summary: string, height?: number }) {
  const box = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const el = box.current
    if (el === null) return
    const n = props.x.length
    const xs = props.kind === 'line' ? props.x.map(d => Date.parse(`${d}T00:00:00Z`) / 1000) : props.x.map((_d, i) => i)
    // Stacked: each series holds the running sum, drawn tallest first so each shows its own band.
    let ys = props.series.map(s => s.values)
    if (props.kind === 'stacked') {
      const sums: number[][] = []
      ys.forEach((v, i) => sums.push(v.map((y, j) => y + (i === 0 ? 0 : sums[i - 1]![j]!))))
      ys = sums
    }
    const order = props.kind === 'stacked' ? [...props.series.keys()].reverse() : [...props.series.keys()]
    const muted = getComputedStyle(el).getPropertyValue('--muted').trim() || '#888'
    const grid = getComputedStyle(el).getPropertyValue('--border').trim() || '#ccc'
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
    const bars = UPlot.paths.bars!({ size: [0.6, 64] })
    const opts: UPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: props.height ?? 280,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: props.kind === 'line' ? { time: true, range: [xs[0]! - 43_200, xs[n - 1]! + 43_200] } : { time: false, range: [-0.5, n - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [
        props.kind === 'line'
          // One tick a day (every few days for long ranges), written as UTC dates.
          ? { ...axis, splits: () => xs.filter((_x, i) => i % Math.ceil(n / 10) === 0), values: (_u, splits) => splits.map(t => new Date(t * 1000).toISOString().slice(0, 10)) }
          : { ...axis, splits: () => xs, values: (_u, splits) => splits.map(i => props.x[i] ?? '') },
        { ...axis, size: 60 }
      ],
      series: [
        props.kind === 'line'
          ? { label: 'Day', value: (_u: UPlot, v: number | null) => v === null ? '--' : new Date(v * 1000).toISOString().slice(0, 10) }
          : { label: 'Zone', value: (_u: UPlot, v: number | null) => v === null ? '--' : props.x[v] ?? '' },
        ...order.map(i => {
          const s = props.series[i]!
          return props.kind === 'line'
            ? { label: s.label, stroke: s.colour, width: 2, points: { show: n < 40 } }
            : { label: s.label, stroke: s.colour, fill: s.colour, width: 0, paths: bars, value: (_u: UPlot, _v: number | null, _si: number, idx: number | null) => idx === null ? '' : String(s.values[idx] ?? 0) }
        })
      ]
    }
    const data: UPlot.AlignedData = [xs, ...order.map(i => ys[i]!)]
    const plot = new UPlot(opts, data, el)
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 280 }))
    resize.observe(el)
    return () => { resize.disconnect(); plot.destroy() }
  }, [props.kind, props.x.join('\n'), JSON.stringify(props.series)])

  return (
    <figure class='chart' role='img' aria-label={props.summary}>
      <div ref={box} class='chart-box' />
    </figure>
  )
}
