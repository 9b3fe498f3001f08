/** One named defect: a small, deliberate departure from one spec clause. */
export interface DefectInfo {
  area: string
  /** The spec clause it violates: document and section. */
  clause: string
  description: string
  /**
   * Why the defect cannot be seen through the API, when it cannot: excluded from the mutation score (npm run mutation).
   */
  undetectable?: string
}
