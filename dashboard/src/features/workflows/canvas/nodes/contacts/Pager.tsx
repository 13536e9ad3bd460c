import type { PageMeta } from '../../../../../api/gen/model';
import { Button } from '../../../../../components/ui/button';

/** The Contacts card's pager (CSV and HubSpot contacts): "Showing a - b of n", Previous, Next. */
export function ContactsPager({ meta, page, setPage }: { meta: PageMeta; page: number; setPage: (page: number) => void }) {
  return (
    <div className="flex items-center justify-between text-sm text-fg-muted">
      <span>
        Showing {meta.start} - {meta.end} of {meta.totalSize}
      </span>
      <span className="flex items-center gap-2">
        <Button variant="ghost" className="nodrag" disabled={!meta.hasPrevious} onClick={() => setPage(page - 1)}>
          Previous
        </Button>
        Page {meta.page} - {meta.totalPages}
        <Button variant="ghost" className="nodrag" disabled={!meta.hasNext} onClick={() => setPage(page + 1)}>
          Next
        </Button>
      </span>
    </div>
  );
}
