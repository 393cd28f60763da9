"""Handle: what OASIS numbers on this process (a component, partition or variable)."""


class Handle:
    """A named object with the number OASIS gave it (id)."""

    name = ""
    _id = 0

    @property
    def id(self):
        """OASIS's number of this object."""
        return self._id

    def get_id(self):
        return self._id

    def get_name(self):
        return self.name
