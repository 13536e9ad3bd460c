import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';

export function ConflictDialog({ open, mine, theirs, onKeepMine, onReload }: { open: boolean; mine: number; theirs: number | undefined; onKeepMine: () => void; onReload: () => void }) {
  const saved = theirs === undefined ? 'saved this workflow after you opened it' : `saved version ${theirs} of this workflow; your changes are based on version ${mine}`;
  return (
    <Dialog open={open}>
      <DialogContent title="This workflow changed elsewhere" description={`Someone (or another tab) ${saved}. Your latest changes are not saved yet.`}>
        <p className="text-sm text-fg-soft">
          Reload to see {theirs === undefined ? 'their version' : `version ${theirs}`} and lose your unsaved changes, or keep yours and save it over theirs.
        </p>
        <DialogFooter>
          <Button variant="secondary" onClick={onReload}>
            Reload their version
          </Button>
          <Button onClick={onKeepMine}>Keep mine</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
