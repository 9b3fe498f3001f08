/** One named defect: a small, deliberate departure from one spec clause. */
export interface DefectInfo {
  area: string
  /** The spec clause it violates: document and section. */
  clause: string
  description: string
}
